// The confirmation poller (DESIGN 4) against the simulated partner POS: confirms from the sale's invoice, once, within expiry plus grace.
import { describe, expect, it } from 'vitest';
import { CUSTOMER, cart, harness, MINUTE, manualClock } from '../support/harness.js';
import { simulatedPartner } from '../support/simulated-partner.js';

function setup() {
  const clock = manualClock();
  const { sim, storeId, devices, registration } = simulatedPartner(clock);
  const h = harness({ clients: [registration()] }, clock);
  const imei = devices[0]!;
  const authorize = async () =>
    (await h.authorize(cart({ imei, storeId }))).body.data.authorizationId as string;
  return { h, sim, storeId, imei, authorize };
}

const searches = (sim: ReturnType<typeof setup>['sim']) =>
  sim.requests.count({ endpoint: 'POST /v1/sales/search' });

describe('confirmation poller', () => {
  it('DESIGN 4: without confirm, the poller waits while the sale is PENDING and confirms from its invoice once ACTIVE', async () => {
    const { h, sim, storeId, imei, authorize } = setup();
    const id = await authorize();
    expect(await h.service.workers.pollConfirmations()).toEqual({
      checked: 1,
      confirmed: 0,
      waiting: 1,
      refused: 0,
    });
    const sale = sim.sales.register({ imei, taxId: CUSTOMER, storeId, status: 'PENDING' });
    h.clock.advance(MINUTE);
    expect((await h.service.workers.pollConfirmations()).waiting).toBe(1);

    h.clock.advance(MINUTE);
    const invoiced = sim.sales.setStatus({ saleNumber: sale.saleNumber }, 'ACTIVE');
    expect(await h.service.workers.pollConfirmations()).toEqual({
      checked: 1,
      confirmed: 1,
      waiting: 0,
      refused: 0,
    });
    // The POS's late confirm with the same invoice gets the contract the poller created.
    const confirm = await h.confirm(id, {
      saleNumber: invoiced.saleNumber,
      invoiceNumber: invoiced.invoiceNumber!,
      nfeAccessKey: invoiced.nfeAccessKey!,
      invoicedAt: invoiced.saleDate,
    });
    expect(confirm.body.data).toMatchObject({ authorizationId: id, status: 'CONFIRMED' });
    h.clock.advance(MINUTE);
    expect(await h.service.workers.pollConfirmations()).toMatchObject({ checked: 0 });
  });

  it('searches one sale at most once per confirmationPollMs, whatever the number of runs', async () => {
    const { h, sim, authorize } = setup();
    await authorize();
    await h.service.workers.pollConfirmations();
    await h.service.workers.pollConfirmations();
    expect(searches(sim)).toBe(1);
    h.clock.advance(MINUTE);
    await h.service.workers.pollConfirmations();
    expect(searches(sim)).toBe(2);
  });

  it('R-06: stops searching once the authorization expired more than the grace period ago', async () => {
    const { h, sim, authorize } = setup();
    await authorize();
    h.clock.advance(15 * MINUTE + 60 * MINUTE - 1);
    expect((await h.service.workers.pollConfirmations()).checked).toBe(1);
    h.clock.advance(MINUTE);
    expect((await h.service.workers.pollConfirmations()).checked).toBe(0);
    expect(searches(sim)).toBe(1);
  });

  it('R-06: a sale invoiced after the authorization expired is refused, not confirmed', async () => {
    const { h, sim, storeId, imei, authorize } = setup();
    const id = await authorize();
    h.clock.advance(20 * MINUTE);
    sim.sales.register({ imei, taxId: CUSTOMER, storeId, status: 'ACTIVE' });
    expect(await h.service.workers.pollConfirmations()).toMatchObject({ confirmed: 0, refused: 1 });
    const cancelled = await h.cancel(id, { reason: 'OTHER' });
    expect(cancelled.body.error.code).toBe('invalid_state_transition');
  });

  it('a POS that fails leaves the sale waiting for the next period', async () => {
    const { h, sim, storeId, imei, authorize } = setup();
    await authorize();
    sim.sales.register({ imei, taxId: CUSTOMER, storeId, status: 'ACTIVE' });
    sim.faults.serverErrors({ endpoint: 'POST /v1/sales/search', count: 1 });
    expect(await h.service.workers.pollConfirmations()).toMatchObject({ waiting: 1, confirmed: 0 });
    h.clock.advance(MINUTE);
    expect(await h.service.workers.pollConfirmations()).toMatchObject({ confirmed: 1 });
  });
});
