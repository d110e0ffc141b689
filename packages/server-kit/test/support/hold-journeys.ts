// The stock-hold journeys of issue 30 through the public API, against the simulated partner POS, on any store (memory and PostgreSQL run them).
import { defaultLimits, type Store } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { CUSTOMER, cart, DAY, harness, MINUTE, manualClock } from './harness.js';
import { simulatedPartner } from './simulated-partner.js';

type MakeStore = () => Store | Promise<Store>;

/** A service whose partner offers holds, one device of its shelf, and what the partner keeps. */
export async function heldSale(makeStore: MakeStore) {
  const clock = manualClock();
  const partner = simulatedPartner(clock);
  const pos = partner.posClient();
  const store = await makeStore();
  const registration = partner.registration(pos, { holds: true });
  const h = harness({ clients: [registration], store }, clock);
  const imei = partner.devices[0]!;
  const { storeId, sim } = partner;
  const atPartner = (reservationId: string) =>
    sim.reservations.list().find((hold) => hold.reservationId === reservationId)!;
  /** The seller flow's hold: IMEI validated at the POS, then held by the service; its reference. */
  const place = async () => {
    expect((await pos.store(storeId).imei.validate(imei)).inStock).toBe(true);
    const placed = await h.service.holds.place({ storeId, imei });
    if (!placed.held) throw new Error('expected a hold');
    return { storeId, reservationId: placed.hold.reservationId };
  };
  /** The seller flow: device held, proposal approved with the hold. */
  const holdAndApprove = async (body = cart({ imei, storeId })) => {
    const { reservationId } = await place();
    const proposal = await h.service.proposals.approve({
      clientTaxId: CUSTOMER,
      storeId,
      amount: body.totals.grandTotal,
      hold: { reservationId },
    });
    return { reservationId, proposal, body };
  };
  const authorize = async (body: unknown) => {
    const answer = await h.authorize(body);
    expect(answer.body.data.authorized).toBe(true);
    return answer.body.data as { authorizationId: string; expiresAt: string };
  };
  const close = async () => {
    await h.service.close();
    await store.close();
  };
  return {
    h,
    clock,
    sim,
    pos,
    store,
    registration,
    storeId,
    imei,
    atPartner,
    place,
    holdAndApprove,
    authorize,
    close,
  };
}

export function describeHoldJourneys(name: string, makeStore: MakeStore): void {
  describe(`stock holds (issue 30): ${name}`, () => {
    it('HOLD-3, HOLD-5, SR-11: the hold follows its proposal: extended to expiresAt plus the grace once authorized, committed at invoicing', async () => {
      const t = await heldSale(makeStore);
      const { reservationId, proposal, body } = await t.holdAndApprove();
      expect(proposal.hold).toMatchObject({
        reservationId,
        proposalId: proposal.proposalId,
        state: 'ACTIVE',
      });
      const authorization = await t.authorize(body);
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ checked: 1, extended: 1 });
      const grace = defaultLimits.confirmationGraceMs;
      expect(Date.parse(t.atPartner(reservationId).expiresAt)).toBe(
        Date.parse(authorization.expiresAt) + grace,
      );
      // Extended once per authorization: the next runs only look.
      t.clock.advance(MINUTE);
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ extended: 0 });

      const sale = t.sim.sales.register({
        imei: t.imei,
        taxId: CUSTOMER,
        storeId: t.storeId,
        status: 'ACTIVE',
      });
      const confirmed = await t.h.confirm(authorization.authorizationId, {
        saleNumber: sale.saleNumber,
        invoiceNumber: sale.invoiceNumber!,
        nfeAccessKey: sale.nfeAccessKey!,
        invoicedAt: sale.saleDate,
      });
      expect(confirmed.body.data.status).toBe('CONFIRMED');
      t.clock.advance(MINUTE);
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ committed: 1 });
      const kept = await t.h.service.holds.get({ storeId: t.storeId, reservationId });
      expect(kept).toMatchObject({ state: 'COMMITTED', nextCheckAt: null });
      expect(t.atPartner(reservationId).state).toBe('COMMITTED');
      await t.close();
    });

    it('HOLD-6: the credit flow declines: the worker releases the hold, and asking twice changes nothing', async () => {
      const t = await heldSale(makeStore);
      const reference = await t.place();
      const marked = await t.h.service.holds.release(reference);
      expect(marked.releaseReason).toBe('CREDIT_DECLINED');
      expect(await t.h.service.holds.release(reference)).toEqual(marked);
      expect(t.atPartner(reference.reservationId).state).toBe('ACTIVE');
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ released: 1 });
      expect(t.atPartner(reference.reservationId).state).toBe('RELEASED');
      expect(await t.h.service.holds.get(reference)).toMatchObject({ state: 'RELEASED', nextCheckAt: null });
      // An ended hold cannot serve a proposal.
      await expect(
        t.h.service.proposals.approve({
          clientTaxId: CUSTOMER,
          storeId: t.storeId,
          amount: { amount: 100_000, currency: 'BRL' },
          hold: { reservationId: reference.reservationId },
        }),
      ).rejects.toMatchObject({ code: 'reservation_not_active' });
      await t.close();
    });

    it('HOLD-4: an authorization that expires unconfirmed releases its hold', async () => {
      const t = await heldSale(makeStore);
      const { reservationId, body } = await t.holdAndApprove();
      await t.authorize(body);
      await t.h.service.workers.keepHolds();
      t.clock.advance(16 * MINUTE);
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ released: 1 });
      expect(t.atPartner(reservationId).state).toBe('RELEASED');
      expect((await t.h.service.holds.get({ storeId: t.storeId, reservationId })).releaseReason).toBe(
        'AUTHORIZATION_EXPIRED',
      );
      await t.close();
    });

    it('HOLD-4: a verified cancellation releases the hold', async () => {
      const t = await heldSale(makeStore);
      const { reservationId, body } = await t.holdAndApprove();
      const authorization = await t.authorize(body);
      await t.h.service.workers.keepHolds();
      t.sim.sales.register({ imei: t.imei, taxId: CUSTOMER, storeId: t.storeId, status: 'CANCELLED' });
      const notice = await t.h.cancel(authorization.authorizationId, { reason: 'CUSTOMER_REQUEST' });
      expect(notice.body.data).toMatchObject({ verification: 'VERIFIED', status: 'CANCELLED' });
      // Looked at again within a minute (HOLD-7).
      t.clock.advance(MINUTE);
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ released: 1 });
      expect(t.atPartner(reservationId).state).toBe('RELEASED');
      await t.close();
    });

    it('HOLD-8: a release the partner fails is retried, later, until it answers', async () => {
      const t = await heldSale(makeStore);
      const reference = await t.place();
      await t.h.service.holds.release(reference);
      t.sim.faults.serverErrors({
        endpoint: 'POST /v1/stock/reservations/{reservationId}/release',
        count: 2,
      });
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ retrying: 1 });
      // Not due again before its backoff.
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ checked: 0 });
      t.clock.advance(30_000);
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ retrying: 1 });
      t.clock.advance(60_000);
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ released: 1 });
      expect(t.atPartner(reference.reservationId).state).toBe('RELEASED');
      await t.close();
    });

    it('HOLD-8: a partner that stops answering (or stops offering holds) is given up a day past the hold expiry: EXPIRED', async () => {
      const t = await heldSale(makeStore);
      const reference = await t.place();
      await t.h.service.holds.release(reference);
      t.sim.partner.set({ reservations: 'not-implemented' });
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ retrying: 1 });
      expect((await t.h.service.holds.get(reference)).lastOutcome).toBe(
        'failed: partner_without_stock_holds',
      );
      t.clock.advance(DAY);
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ retrying: 1 });
      t.clock.advance(DAY);
      expect(await t.h.service.workers.keepHolds()).toMatchObject({ expired: 1 });
      expect(await t.h.service.holds.get(reference)).toMatchObject({ state: 'EXPIRED', nextCheckAt: null });
      await t.close();
    });

    it('HOLD-7: two instances on one store run the worker at once: each hold is released once', async () => {
      const t = await heldSale(makeStore);
      const other = harness({ clients: [t.registration], store: t.store }, t.clock);
      const devices = t.sim.data.devices({ storeId: t.storeId, inStock: true }).slice(0, 4);
      for (const device of devices) {
        const placed = await t.h.service.holds.place({ storeId: t.storeId, imei: device.imei });
        if (!placed.held) throw new Error('expected a hold');
        await t.h.service.holds.release({ storeId: t.storeId, reservationId: placed.hold.reservationId });
      }
      const endpoint = 'POST /v1/stock/reservations/{reservationId}/release' as const;
      const runs = await Promise.all([t.h.service.workers.keepHolds(), other.service.workers.keepHolds()]);
      expect(runs[0]!.released + runs[1]!.released).toBe(devices.length);
      expect(t.sim.requests.count({ endpoint })).toBe(devices.length);
      await other.service.close();
      await t.close();
    });

    it('HOLD-1, spec 1.4: no Partner POS call is made while an authorize is handled, with holds on', async () => {
      const t = await heldSale(makeStore);
      const { body } = await t.holdAndApprove();
      await t.h.token();
      const before = t.sim.requests.count();
      await t.authorize(body);
      // A decline (a CPF the sandbox refuses, no proposal) and a refusal (the IMEI is financed) alike.
      const declined = await t.h.authorize(
        cart({ imei: t.imei, storeId: t.storeId, clientTaxId: '00000000272' }),
      );
      expect(declined.status).toBeGreaterThanOrEqual(200);
      expect(t.sim.requests.count()).toBe(before);
      await t.close();
    });

    it('HOLD-2: a partner without holds (501, 404, or not registered with stockHolds): the sale goes on without one', async () => {
      for (const reservations of ['not-implemented', 'not-found'] as const) {
        const t = await heldSale(makeStore);
        t.sim.partner.set({ reservations });
        expect(await t.h.service.holds.place({ storeId: t.storeId, imei: t.imei })).toEqual({
          held: false,
          reason: 'not_supported',
        });
        const body = cart({ imei: t.imei, storeId: t.storeId });
        await t.h.service.proposals.approve({
          clientTaxId: CUSTOMER,
          storeId: t.storeId,
          amount: body.totals.grandTotal,
        });
        await t.authorize(body);
        expect(await t.h.service.workers.keepHolds()).toMatchObject({ checked: 0 });
        await t.close();
      }
      const clock = manualClock();
      const partner = simulatedPartner(clock);
      const store = await makeStore();
      const h = harness({ clients: [partner.registration()], store }, clock);
      expect(await h.service.holds.place({ storeId: partner.storeId, imei: partner.devices[0]! })).toEqual({
        held: false,
        reason: 'not_supported',
      });
      expect(partner.sim.requests.count()).toBe(0);
      await h.service.close();
      await store.close();
    });
  });
}
