// R-08 end to end with the simulated partner POS and @fin/pos-client as the SaleSearch port.
import { describe, expect, it } from 'vitest';
import { CUSTOMER, cart, harness, MINUTE, manualClock, OTHER_CUSTOMER } from './support/harness.js';
import { simulatedPartner } from './support/simulated-partner.js';

function setup() {
  const clock = manualClock();
  const partner = simulatedPartner(clock);
  const h = harness({ clients: [partner.registration()] }, clock);
  const [imei, otherImei] = partner.devices;
  return { h, sim: partner.sim, storeId: partner.storeId, imei: imei!, otherImei: otherImei! };
}

describe('R-08 with the simulated partner POS', () => {
  it('R-08: the search prevails over the notice; once the POS cancels, the financing is cancelled and the IMEI freed', async () => {
    const { h, sim, storeId, imei } = setup();
    const authorized = await h.authorize(cart({ imei, storeId }));
    const id = authorized.body.data.authorizationId as string;
    const sale = sim.sales.register({ imei, taxId: CUSTOMER, storeId, status: 'ACTIVE' });
    const confirmed = await h.confirm(id, {
      saleNumber: sale.saleNumber,
      invoiceNumber: sale.invoiceNumber!,
      nfeAccessKey: sale.nfeAccessKey!,
      invoicedAt: sale.saleDate,
    });
    expect(confirmed.body.data.status).toBe('CONFIRMED');

    // The POS notifies before cancelling on its side: the search shows ACTIVE, the search prevails.
    const early = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(early.body.data).toMatchObject({
      verification: 'CONTRADICTED',
      financingCancelled: false,
      status: 'CONFIRMED',
    });

    h.clock.advance(MINUTE);
    sim.sales.setStatus({ saleNumber: sale.saleNumber }, 'CANCELLED');
    const notice = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(notice.body.data).toMatchObject({
      verification: 'VERIFIED',
      financingCancelled: true,
      status: 'CANCELLED',
    });
    expect(
      (await h.authorize(cart({ imei, storeId, clientTaxId: OTHER_CUSTOMER }))).body.data.authorized,
    ).toBe(true);
  });

  it('R-08: while the POS fails, the notice waits; the verifier cancels once the POS answers, and the exchange reuses', async () => {
    const { h, sim, storeId, imei, otherImei } = setup();
    const id = (await h.authorize(cart({ imei, storeId }))).body.data.authorizationId as string;
    const sale = sim.sales.register({ imei, taxId: CUSTOMER, storeId, status: 'ACTIVE' });
    sim.sales.setStatus({ saleNumber: sale.saleNumber }, 'CANCELLED');
    sim.faults.serverErrors({ endpoint: 'POST /v1/sales/search', count: 1 });
    const pending = await h.cancel(id, { reason: 'EXCHANGE' });
    expect(pending.body.data).toMatchObject({ verification: 'PENDING', financingCancelled: false });
    // Neither the IMEI nor the proposal is free before verification.
    expect((await h.authorize(cart({ imei, storeId, clientTaxId: OTHER_CUSTOMER }))).body.error.code).toBe(
      'imei_already_financed',
    );

    h.clock.advance(MINUTE);
    expect(await h.service.workers.verifyCancellations()).toEqual({
      checked: 1,
      verified: 1,
      contradicted: 0,
      pending: 0,
    });
    const exchange = await h.authorize(cart({ imei: otherImei, storeId, price: 200_000 }));
    expect(exchange.body.data).toMatchObject({ authorized: true, proposalReuse: { reused: true } });
  });
});
