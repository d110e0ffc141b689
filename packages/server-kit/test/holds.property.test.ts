// Property (issue 30): whatever the seller flows, decisions, invoices, partner faults and elapsed time, every hold the service made ends released, expired or committed, as the partner says, and the partner's invariants hold.
import { isFinApiError } from '@fin/core';
import { memoryStore } from '@fin/server-kit';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { CUSTOMER, cart, MINUTE, OTHER_CUSTOMER } from './support/harness.js';
import { heldSale } from './support/hold-journeys.js';

type Step =
  | { kind: 'place' | 'approve' | 'authorize' | 'invoice' | 'decline'; device: number }
  | { kind: 'wait'; minutes: number }
  | { kind: 'work' }
  | { kind: 'fault'; on: 'release' | 'extend' };

const device = fc.nat(1);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('place', 'approve', 'authorize', 'invoice', 'decline') as fc.Arbitrary<
      'place' | 'approve' | 'authorize' | 'invoice' | 'decline'
    >,
    device,
  }),
  fc.record({ kind: fc.constant('wait' as const), minutes: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('work' as const) }),
  fc
    .record({
      kind: fc.constantFrom('release', 'extend') as fc.Arbitrary<'release' | 'extend'>,
      on: fc.constant(0),
    })
    .map(({ kind }): Step => ({ kind: 'fault', on: kind })),
);

/** Refusals a step may meet; anything else is a bug. */
const expected = new Set([
  'imei_already_reserved',
  'imei_not_in_stock',
  'reservation_not_active',
  'validation_error',
]);

type Sale = Awaited<ReturnType<typeof heldSale>>;

/** SR-10 at the partner: holds never exceed stock, an IMEI never has two active holds. */
function assertPartnerInvariants(t: Sale) {
  const active = t.sim.reservations.list().filter((hold) => hold.state === 'ACTIVE');
  const imeis = active.flatMap((hold) => (hold.imei ? [hold.imei] : []));
  expect(new Set(imeis).size).toBe(imeis.length);
  const bySku = new Map<string, number>();
  for (const hold of active) bySku.set(hold.sku, (bySku.get(hold.sku) ?? 0) + hold.quantity);
  for (const [sku, held] of bySku) {
    const entry = t.sim.data.products(t.storeId).find((candidate) => candidate.product.sku === sku)!;
    expect(held).toBeLessThanOrEqual(entry.stock);
  }
}

async function run(steps: Step[]) {
  const t = await heldSale(() => memoryStore());
  const imeis = [t.imei, t.sim.data.devices({ storeId: t.storeId, inStock: true })[1]!.imei];
  const customers = [CUSTOMER, OTHER_CUSTOMER];
  const holds: string[][] = [[], []];
  const authorizations: string[][] = [[], []];
  const body = (d: number) => cart({ imei: imeis[d]!, storeId: t.storeId, clientTaxId: customers[d]! });
  const refusedAsExpected = (error: unknown) => {
    if (!isFinApiError(error) || !expected.has(error.code)) throw error;
  };
  const actions: Record<Step['kind'], (s: Step) => Promise<unknown>> = {
    place: async (s) => {
      const placed = await t.h.service.holds.place({
        storeId: t.storeId,
        imei: imeis[(s as { device: number }).device]!,
      });
      if (placed.held) holds[(s as { device: number }).device]!.push(placed.hold.reservationId);
    },
    approve: async (s) => {
      const d = (s as { device: number }).device;
      const reservationId = holds[d]!.at(-1);
      const amount = body(d).totals.grandTotal;
      await t.h.service.proposals.approve({
        clientTaxId: customers[d]!,
        storeId: t.storeId,
        amount,
        ...(reservationId ? { hold: { reservationId } } : {}),
      });
    },
    authorize: async (s) => {
      const d = (s as { device: number }).device;
      await t.h.token();
      const before = t.sim.requests.count();
      const answer = await t.h.authorize(body(d));
      // Spec 1.4: an authorize never asks the partner anything, holds or not.
      expect(t.sim.requests.count()).toBe(before);
      if (answer.body?.data?.authorized) authorizations[d]!.push(answer.body.data.authorizationId);
    },
    invoice: async (s) => {
      const d = (s as { device: number }).device;
      const id = authorizations[d]!.at(-1);
      if (!id || (await t.h.retrieve(id)).body?.data?.status !== 'AUTHORIZED') return;
      const sale = t.sim.sales.register({
        imei: imeis[d]!,
        taxId: customers[d]!,
        storeId: t.storeId,
        status: 'ACTIVE',
      });
      await t.h.confirm(id, {
        saleNumber: sale.saleNumber,
        invoiceNumber: sale.invoiceNumber!,
        nfeAccessKey: sale.nfeAccessKey!,
        invoicedAt: sale.saleDate,
      });
    },
    decline: async (s) => {
      const reservationId = holds[(s as { device: number }).device]!.at(-1);
      if (reservationId) await t.h.service.holds.release({ storeId: t.storeId, reservationId });
    },
    wait: async (s) => t.clock.advance((s as { minutes: number }).minutes * MINUTE),
    work: () => t.h.service.workers.keepHolds(),
    fault: async (s) =>
      t.sim.faults.serverErrors({
        endpoint:
          (s as { on: string }).on === 'release'
            ? 'POST /v1/stock/reservations/{reservationId}/release'
            : 'POST /v1/stock/reservations/{reservationId}/extend',
      }),
  };
  for (const s of steps) {
    await actions[s.kind](s).catch(refusedAsExpected);
    assertPartnerInvariants(t);
  }
  // Time passes well beyond any hold's end; the worker runs now and then.
  for (let i = 0; i < 16; i++) {
    t.clock.advance(20 * MINUTE);
    await t.h.service.workers.keepHolds();
  }
  for (const reservationId of holds.flat()) {
    const kept = await t.h.service.holds.get({ storeId: t.storeId, reservationId });
    expect(['RELEASED', 'EXPIRED', 'COMMITTED']).toContain(kept.state);
    expect(kept.nextCheckAt).toBeNull();
    expect(t.atPartner(reservationId).state).toBe(kept.state);
  }
  assertPartnerInvariants(t);
  await t.close();
}

it('issue 30: every hold the service made ends released, expired or committed, and the partner agrees', async () => {
  await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), run), { numRuns: 40 });
});
