// The workers that search sales (R-08 verifier, confirmation poller) against partners whose "no sale" 404 has any code, or whose request ids are their own.
import { FinApiError } from '@fin/core';
import { type ClientRegistration, memoryStore } from '@fin/server-kit';
import type { SaleSearch } from '@fin/server-kit/store';
import { describe, expect, it } from 'vitest';
import { CUSTOMER, cart, harness, MINUTE, manualClock, PARTNER_A } from '../support/harness.js';
import { simulatedPartner } from '../support/simulated-partner.js';

const NO_SALE = 'no sale of this authorization in the search';

function setup(registration?: (partner: ReturnType<typeof simulatedPartner>) => ClientRegistration) {
  const clock = manualClock();
  const partner = simulatedPartner(clock);
  const store = memoryStore();
  const h = harness({ clients: [registration?.(partner) ?? partner.registration()], store }, clock);
  const imei = partner.devices[0]!;
  const authorize = async () =>
    (await h.authorize(cart({ imei, storeId: partner.storeId }))).body.data.authorizationId as string;
  const outcome = async (id: string) => (await store.getAuthorization(id))?.cancellation?.lastOutcome;
  return { h, sim: partner.sim, storeId: partner.storeId, imei, authorize, outcome };
}

describe.each(['resource_not_found', 'sale_not_found', 'not_found'])(
  'a partner answering "no sale" with 404 `%s`',
  (saleNotFoundCode) => {
    it('R-08: the notice waits on "no sale" (not on a failed search); the verifier cancels once the sale shows CANCELLED', async () => {
      const { h, sim, storeId, imei, authorize, outcome } = setup();
      sim.partner.set({ saleNotFoundCode });
      const id = await authorize();
      const pending = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
      expect(pending.body.data).toMatchObject({ verification: 'PENDING', financingCancelled: false });
      expect(await outcome(id)).toBe(NO_SALE);
      expect(sim.requests.count({ endpoint: 'POST /v1/sales/search', status: 404 })).toBe(1);

      h.clock.advance(MINUTE);
      sim.sales.register({ imei, taxId: CUSTOMER, storeId, status: 'CANCELLED' });
      expect(await h.service.workers.verifyCancellations()).toEqual({
        checked: 1,
        verified: 1,
        contradicted: 0,
        pending: 0,
      });
    });

    it('DESIGN 4: the poller waits while the search finds nothing, then confirms once the sale is ACTIVE', async () => {
      const { h, sim, storeId, imei, authorize } = setup();
      sim.partner.set({ saleNotFoundCode });
      await authorize();
      expect(await h.service.workers.pollConfirmations()).toEqual({
        checked: 1,
        confirmed: 0,
        waiting: 1,
        refused: 0,
      });
      h.clock.advance(MINUTE);
      sim.sales.register({ imei, taxId: CUSTOMER, storeId, status: 'ACTIVE' });
      expect(await h.service.workers.pollConfirmations()).toMatchObject({ checked: 1, confirmed: 1 });
    });
  },
);

describe('sale search ports other than PosClient', () => {
  it('R-08: a port throwing an API error with status 404, whatever its code, is "no sale"; other errors are a failed search', async () => {
    let failure: unknown = new FinApiError({ code: 'venda_inexistente', status: 404 });
    const saleSearch: SaleSearch = {
      search: async () => {
        throw failure;
      },
    };
    const { h, outcome } = setup(() => ({ ...PARTNER_A, storeIds: ['store-a1'], saleSearch }));
    const first = await h.authorize(cart({ storeId: 'store-a1' }));
    const id = first.body.data.authorizationId as string;
    await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(await outcome(id)).toBe(NO_SALE);

    failure = new FinApiError({ code: 'service_unavailable', status: 503 });
    h.clock.advance(2 * MINUTE);
    await h.service.workers.verifyCancellations();
    expect(await outcome(id)).toBe('sale search failed: service_unavailable');
  });
});

describe('a partner that does not echo X-Request-Id', () => {
  it('R-08: verification works the same', async () => {
    const { h, sim, storeId, imei, authorize } = setup();
    sim.partner.set({ echoRequestId: false });
    const id = await authorize();
    sim.sales.register({ imei, taxId: CUSTOMER, storeId, status: 'CANCELLED' });
    const notice = await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(notice.body.data).toMatchObject({ verification: 'VERIFIED', financingCancelled: true });
  });
});
