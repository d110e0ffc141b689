// Property (issue 30): whatever the sequence of holds, releases, extensions, invoicing and elapsed time, holds never exceed stock, an IMEI never has two active holds, and every hold ends released, expired or committed.
import { FinApiError, type StockReservation } from '@fin/core';
import { PosClient } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import fc from 'fast-check';
import { expect, it } from 'vitest';

type Step =
  | { kind: 'holdImei'; device: number }
  | { kind: 'holdAccessory'; quantity: number }
  | { kind: 'release'; hold: number }
  | { kind: 'extend'; hold: number; ttlSeconds: number }
  | { kind: 'invoice'; device: number }
  | { kind: 'wait'; minutes: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('holdImei' as const), device: fc.nat(2) }),
  fc.record({ kind: fc.constant('holdAccessory' as const), quantity: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('release' as const), hold: fc.nat(9) }),
  fc.record({
    kind: fc.constant('extend' as const),
    hold: fc.nat(9),
    ttlSeconds: fc.integer({ min: 900, max: 7200 }),
  }),
  fc.record({ kind: fc.constant('invoice' as const), device: fc.nat(2) }),
  fc.record({ kind: fc.constant('wait' as const), minutes: fc.integer({ min: 1, max: 40 }) }),
);

/** The refusals a step may meet; anything else is a bug. */
const expected = new Set([
  'imei_already_reserved',
  'insufficient_stock',
  'imei_not_in_stock',
  'reservation_not_active',
]);

function partner() {
  let now = Date.parse('2026-03-02T13:00:00.000Z');
  const sim = createSimulatedPos({ clock: { now: () => new Date(now) }, rateLimit: false });
  const storeId = sim.data.sellers[0]!.storeId;
  const devices = sim.data.devices({ storeId, inStock: true });
  const smartphone = devices[0]!.sku;
  const sameModel = devices.filter((device) => device.sku === smartphone).slice(0, 3);
  const accessory = sim.data.products(storeId).find((entry) => entry.product.productType !== 'SMARTPHONE')!;
  // Fewer units than devices and than accessory holds asked: the stock limit is reached.
  sim.catalog.setStock(storeId, smartphone, 2);
  sim.catalog.setStock(storeId, accessory.product.sku, 4);
  const pos = new PosClient({
    baseUrl: 'https://pos.test',
    ...sim.credentials,
    rateLimit: false,
    fetch: sim.fetch,
  });
  const advance = (minutes: number) => {
    now += minutes * 60_000;
  };
  return { sim, storeId, store: pos.store(storeId), sameModel, accessorySku: accessory.product.sku, advance };
}

/** Holds never exceed stock; an IMEI never has two active holds. */
function assertInvariants(t: ReturnType<typeof partner>) {
  const active = t.sim.reservations.list().filter((hold) => hold.state === 'ACTIVE');
  const bySku = new Map<string, number>();
  for (const hold of active) bySku.set(hold.sku, (bySku.get(hold.sku) ?? 0) + hold.quantity);
  for (const [sku, held] of bySku) {
    const entry = t.sim.data.products(t.storeId).find((candidate) => candidate.product.sku === sku)!;
    expect(held).toBeLessThanOrEqual(entry.stock);
  }
  const imeis = active.flatMap((hold) => (hold.imei ? [hold.imei] : []));
  expect(new Set(imeis).size).toBe(imeis.length);
}

async function run(t: ReturnType<typeof partner>, made: StockReservation[], next: Step) {
  const refusedAs = (error: unknown) => {
    if (!(error instanceof FinApiError) || !expected.has(error.code)) throw error;
  };
  const keep = (outcome: { supported: boolean; reservation?: StockReservation }) => {
    if (outcome.supported && outcome.reservation) made.push(outcome.reservation);
  };
  const target = made[made.length === 0 ? 0 : ('hold' in next ? next.hold : 0) % made.length];
  switch (next.kind) {
    case 'holdImei':
      return t.store.stock.reserve({ imei: t.sameModel[next.device]!.imei }).then(keep, refusedAs);
    case 'holdAccessory':
      return t.store.stock.reserve({ sku: t.accessorySku, quantity: next.quantity }).then(keep, refusedAs);
    case 'release':
      if (target) await t.store.stock.release(target.reservationId);
      return;
    case 'extend':
      if (target)
        await t.store.stock.extend(target.reservationId, { ttlSeconds: next.ttlSeconds }).catch(refusedAs);
      return;
    case 'invoice': {
      const { imei } = t.sameModel[next.device]!;
      if (!t.sim.sales.find({ imei }).some((sale) => sale.status === 'ACTIVE')) {
        t.sim.sales.register({ imei, taxId: '39053344705', status: 'ACTIVE' });
      }
      return;
    }
    case 'wait':
      t.advance(next.minutes);
  }
}

it('holds never exceed stock, an IMEI never has two active holds, and every hold ends released, expired or committed', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
      const t = partner();
      const made: StockReservation[] = [];
      for (const next of steps) {
        await run(t, made, next);
        assertInvariants(t);
      }
      // Past the longest TTL, nothing is held any more: every hold reached a final state.
      t.advance(121);
      const ended = t.sim.reservations.list();
      expect(ended).toHaveLength(made.length);
      for (const hold of ended) expect(['RELEASED', 'EXPIRED', 'COMMITTED']).toContain(hold.state);
    }),
    { numRuns: 40 },
  );
});
