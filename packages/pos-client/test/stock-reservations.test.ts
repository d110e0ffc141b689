// Stock reservation (spec v1.1, issue 30) through the public API: @fin/pos-client against the simulated partner, with and without the capability.
import { FinApiError, FinInputError } from '@fin/core';
import type { ReservationOutcome } from '@fin/pos-client';
import type { SimulatedPos } from '@fin/pos-client/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { startPartner } from './fixtures.js';

const start = Date.parse('2026-03-02T13:00:00.000Z');
const MINUTE = 60_000;

function setup(partner: Parameters<typeof startPartner>[0] = {}) {
  let now = start;
  const started = startPartner({ clock: { now: () => new Date(now) }, ...partner });
  const { sim } = started;
  const seller = sim.data.sellers[0]!;
  const [device, sibling] = sim.data.devices({ storeId: seller.storeId, inStock: true });
  sim.catalog.setStock(seller.storeId, device!.sku, 5);
  const accessory = sim.data
    .products(seller.storeId)
    .find((entry) => entry.product.productType !== 'SMARTPHONE')!;
  sim.catalog.setStock(seller.storeId, accessory.product.sku, 3);
  const pos = started.client();
  const store = pos.store(seller.storeId);
  return {
    ...started,
    pos,
    store,
    device: device!,
    sibling: sibling!,
    accessorySku: accessory.product.sku,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** The hold of a partner that offers reservations. */
async function held<R>(promise: Promise<ReservationOutcome<R>>): Promise<R> {
  const outcome = await promise;
  if (!outcome.supported) throw new Error('expected a partner with reservations');
  return outcome.reservation;
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) =>
      error instanceof FinApiError || error instanceof FinInputError ? error.code : String(error),
  );

let close: (() => void) | undefined;
afterEach(() => close?.());

describe('stock reservation on a partner that offers it', () => {
  it('holds a smartphone by IMEI for the default 30 minutes, and GET /v1/stock shows it reserved', async () => {
    const t = setup();
    close = t.close;
    const hold = await held(t.store.stock.reserve({ imei: t.device.imei }));
    expect(hold).toMatchObject({ state: 'ACTIVE', imei: t.device.imei, sku: t.device.sku, quantity: 1 });
    expect(Date.parse(hold.expiresAt) - start).toBe(30 * MINUTE);
    const level = await t.store.stock.get(t.device.sku);
    expect(level).toMatchObject({ stock: 5, reserved: 1 });
  });

  it('at most one active hold per IMEI: a second hold is imei_already_reserved (409)', async () => {
    const t = setup();
    close = t.close;
    await held(t.store.stock.reserve({ imei: t.device.imei }));
    expect(await codeOf(t.store.stock.reserve({ imei: t.device.imei }))).toBe('imei_already_reserved');
  });

  it('create is idempotent: a retry with the same Idempotency-Key answers the first hold, holding nothing more', async () => {
    const t = setup();
    close = t.close;
    const idempotencyKey = crypto.randomUUID();
    const first = await held(t.store.stock.reserve({ sku: t.accessorySku, quantity: 2 }, { idempotencyKey }));
    const retry = await held(t.store.stock.reserve({ sku: t.accessorySku, quantity: 2 }, { idempotencyKey }));
    expect(retry.reservationId).toBe(first.reservationId);
    expect(first.idempotencyKey).toBe(idempotencyKey);
    expect(t.sim.reservations.list()).toHaveLength(1);
    expect(
      await codeOf(t.store.stock.reserve({ sku: t.accessorySku, quantity: 1 }, { idempotencyKey })),
    ).toBe('idempotency_key_conflict');
  });

  it('holds never exceed stock: accessory units past stock minus reserved are insufficient_stock', async () => {
    const t = setup();
    close = t.close;
    await held(t.store.stock.reserve({ sku: t.accessorySku, quantity: 2 }));
    expect(await codeOf(t.store.stock.reserve({ sku: t.accessorySku, quantity: 2 }))).toBe(
      'insufficient_stock',
    );
    await held(t.store.stock.reserve({ sku: t.accessorySku, quantity: 1 }));
  });

  it('a hold expires on the partner clock, after which the IMEI can be held again', async () => {
    const t = setup();
    close = t.close;
    const hold = await held(t.store.stock.reserve({ imei: t.device.imei, ttlSeconds: 900 }));
    t.advance(15 * MINUTE);
    const read = await held(t.store.stock.reservation(hold.reservationId));
    expect(read).toMatchObject({ state: 'EXPIRED', endedAt: hold.expiresAt });
    expect((await t.store.stock.get(t.device.sku)).reserved ?? 0).toBe(0);
    expect(await codeOf(t.store.stock.extend(hold.reservationId))).toBe('reservation_not_active');
    await held(t.store.stock.reserve({ imei: t.device.imei }));
  });

  it('extend makes the hold last ttlSeconds from now, never shorter', async () => {
    const t = setup();
    close = t.close;
    const hold = await held(t.store.stock.reserve({ imei: t.device.imei }));
    t.advance(10 * MINUTE);
    const longer = await held(t.store.stock.extend(hold.reservationId, { ttlSeconds: 2400 }));
    expect(Date.parse(longer.expiresAt) - start).toBe(50 * MINUTE);
    const kept = await held(t.store.stock.extend(hold.reservationId, { ttlSeconds: 900 }));
    expect(kept.expiresAt).toBe(longer.expiresAt);
  });

  it('release is idempotent: twice answers RELEASED both times, and a released or expired hold answers its state', async () => {
    const t = setup();
    close = t.close;
    const hold = await held(t.store.stock.reserve({ imei: t.device.imei }));
    t.advance(MINUTE);
    const first = await held(t.store.stock.release(hold.reservationId));
    t.advance(MINUTE);
    const second = await held(t.store.stock.release(hold.reservationId));
    expect(first).toMatchObject({ state: 'RELEASED', endedAt: new Date(start + MINUTE).toISOString() });
    expect(second).toMatchObject({ state: 'RELEASED', endedAt: first.endedAt });
    const other = await held(t.store.stock.reserve({ imei: t.sibling.imei, ttlSeconds: 900 }));
    t.advance(20 * MINUTE);
    expect((await held(t.store.stock.release(other.reservationId))).state).toBe('EXPIRED');
  });

  it('the POS commits the hold of an IMEI when it invoices the sale (sale ACTIVE)', async () => {
    const t = setup();
    close = t.close;
    const hold = await held(t.store.stock.reserve({ imei: t.device.imei }));
    t.sim.sales.register({ imei: t.device.imei, taxId: '39053344705', status: 'ACTIVE' });
    expect((await held(t.store.stock.reservation(hold.reservationId))).state).toBe('COMMITTED');
    expect((await held(t.store.stock.release(hold.reservationId))).state).toBe('COMMITTED');
  });

  it('a 404 on one reservation path is reservation_not_found, also for a hold of another store', async () => {
    const t = setup();
    close = t.close;
    expect(await codeOf(t.store.stock.reservation('RSV-999999'))).toBe('reservation_not_found');
    const hold = await held(t.store.stock.reserve({ imei: t.device.imei }));
    const otherStore = t.sim.data.stores.find((store) => store.storeId !== t.store.storeId)!;
    expect(await codeOf(t.pos.store(otherStore.storeId).stock.release(hold.reservationId))).toBe(
      'reservation_not_found',
    );
  });

  it('R-01 and R-06: an unknown store is store_not_found (not "not supported"), a TTL under 15 minutes is refused before sending', async () => {
    const t = setup();
    close = t.close;
    expect(await codeOf(t.pos.store('LJ-NOPE').stock.reserve({ imei: t.device.imei }))).toBe(
      'store_not_found',
    );
    // An unknown SKU is the call's own 404 (resource_not_found), not a missing capability (SR-12).
    expect(await codeOf(t.store.stock.reserve({ sku: 'SKU-NOPE', quantity: 1 }))).toBe('resource_not_found');
    expect(await codeOf(t.store.stock.reserve({ imei: t.device.imei, ttlSeconds: 899 }))).toBe(
      'validation_error',
    );
    expect(await codeOf(t.store.stock.reserve({ sku: t.accessorySku, quantity: 0 }))).toBe(
      'validation_error',
    );
    expect((await held(t.store.stock.reserve({ imei: t.device.imei }))).state).toBe('ACTIVE');
  });
});

describe('stock reservation on a partner without the capability', () => {
  for (const reservations of ['not-found', 'not-implemented'] as const) {
    it(`${reservations}: reserve answers { supported: false } without throwing, remembered for that partner`, async () => {
      const t = setup({ partner: { reservations } });
      close = t.close;
      const sim: SimulatedPos = t.sim;
      expect(await t.store.stock.reserve({ imei: t.device.imei })).toEqual({ supported: false });
      const sent = sim.requests.count({ endpoint: 'POST /v1/stock/reservations' });
      expect(sent).toBe(1);
      expect(await t.store.stock.reserve({ sku: t.accessorySku, quantity: 1 })).toEqual({ supported: false });
      expect(await t.pos.store(t.store.storeId).stock.release('RSV-000001')).toEqual({ supported: false });
      expect(sim.requests.count({ endpoint: 'POST /v1/stock/reservations' })).toBe(sent);
      // A partner without holds reports no `reserved` count; the stock read itself is unchanged.
      expect(await t.store.stock.get(t.device.sku)).not.toHaveProperty('reserved');
      // Another client (another partner connection) asks again.
      const fresh = t.client().store(t.store.storeId);
      expect(await fresh.stock.reserve({ imei: t.device.imei })).toEqual({ supported: false });
      expect(sim.requests.count({ endpoint: 'POST /v1/stock/reservations' })).toBe(sent + 1);
    });
  }
});
