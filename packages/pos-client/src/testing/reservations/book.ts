// The simulated partner's stock holds (spec v1.1): create, read, extend, release and commit, expiring on the injected clock.
import { type ReservationRequest, type StockReservation, schemas } from '@fin/core';
import type { Dataset } from '../data/dataset.js';

/** Why a hold was refused or cannot change: catalog codes the registry entries list. */
export type HoldRefusal =
  | 'resource_not_found'
  | 'imei_not_in_stock'
  | 'insufficient_stock'
  | 'imei_already_reserved'
  | 'reservation_not_found'
  | 'reservation_not_active';

export type HoldOutcome =
  | { ok: true; hold: StockReservation }
  | { ok: false; code: HoldRefusal; hold?: StockReservation };

export interface ReservationBook {
  create(storeId: string, request: ReservationRequest, now: Date): HoldOutcome;
  get(storeId: string, reservationId: string, now: Date): HoldOutcome;
  extend(storeId: string, reservationId: string, ttlSeconds: number | undefined, now: Date): HoldOutcome;
  release(storeId: string, reservationId: string, now: Date): HoldOutcome;
  /** At invoicing: the active hold of `imei`, if any, becomes `COMMITTED`. */
  commit(imei: string, now: Date): void;
  /** Units of `sku` in `storeId` held by active holds. */
  reserved(storeId: string, sku: string, now: Date): number;
  /** Every hold, settled at `now` (expired ones read `EXPIRED`). */
  all(now: Date): StockReservation[];
}

const { defaultSeconds } = schemas.reservationTtl;
const plus = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

export function createReservationBook(dataset: Dataset): ReservationBook {
  const holds = new Map<string, StockReservation>();
  let sequence = 0;

  /** An active hold past its `expiresAt` ends `EXPIRED` at that instant: real expiry on the clock. */
  const settle = (hold: StockReservation, now: Date) => {
    if (hold.state === 'ACTIVE' && now.toISOString() >= hold.expiresAt) {
      Object.assign(hold, { state: 'EXPIRED', endedAt: hold.expiresAt });
    }
    return hold;
  };
  const active = (now: Date) => [...holds.values()].filter((hold) => settle(hold, now).state === 'ACTIVE');
  const reserved = (storeId: string, sku: string, now: Date) =>
    active(now)
      .filter((hold) => hold.storeId === storeId && hold.sku === sku)
      .reduce((sum, hold) => sum + hold.quantity, 0);
  const found = (storeId: string, reservationId: string, now: Date): HoldOutcome => {
    const hold = holds.get(reservationId);
    return hold && hold.storeId === storeId
      ? { ok: true, hold: structuredClone(settle(hold, now)) }
      : { ok: false, code: 'reservation_not_found' };
  };

  /** What a request holds: the device's SKU for an IMEI (on this store's shelf), or the SKU asked. */
  const target = (storeId: string, request: ReservationRequest) => {
    if ('imei' in request) {
      const device = dataset.devices.get(request.imei);
      if (!device || device.storeId !== storeId || !device.inStock) return 'imei_not_in_stock' as const;
      return { sku: device.sku, quantity: 1, imei: request.imei };
    }
    if (!dataset.catalog.get(storeId)?.has(request.sku)) return 'resource_not_found' as const;
    return { sku: request.sku, quantity: request.quantity };
  };

  return {
    create(storeId, request, now) {
      const wanted = target(storeId, request);
      if (typeof wanted === 'string') return { ok: false, code: wanted };
      if (wanted.imei && active(now).some((hold) => hold.imei === wanted.imei)) {
        return { ok: false, code: 'imei_already_reserved' };
      }
      const stock = dataset.catalog.get(storeId)!.get(wanted.sku)?.stock ?? 0;
      if (reserved(storeId, wanted.sku, now) + wanted.quantity > stock) {
        return { ok: false, code: 'insufficient_stock' };
      }
      sequence += 1;
      const hold: StockReservation = {
        reservationId: `RSV-${String(sequence).padStart(6, '0')}`,
        storeId,
        state: 'ACTIVE',
        ...wanted,
        createdAt: now.toISOString(),
        expiresAt: plus(now, request.ttlSeconds ?? defaultSeconds),
      };
      holds.set(hold.reservationId, hold);
      return { ok: true, hold: structuredClone(hold) };
    },
    get: found,
    extend(storeId, reservationId, ttlSeconds, now) {
      const current = found(storeId, reservationId, now);
      if (!current.ok) return current;
      if (current.hold.state !== 'ACTIVE')
        return { ok: false, code: 'reservation_not_active', hold: current.hold };
      const hold = holds.get(reservationId)!;
      const until = plus(now, ttlSeconds ?? defaultSeconds);
      if (until > hold.expiresAt) hold.expiresAt = until;
      return { ok: true, hold: structuredClone(hold) };
    },
    release(storeId, reservationId, now) {
      const current = found(storeId, reservationId, now);
      if (!current.ok || current.hold.state !== 'ACTIVE') return current;
      const hold = holds.get(reservationId)!;
      Object.assign(hold, { state: 'RELEASED', endedAt: now.toISOString() });
      return { ok: true, hold: structuredClone(hold) };
    },
    commit(imei, now) {
      const hold = active(now).find((candidate) => candidate.imei === imei);
      if (hold) Object.assign(hold, { state: 'COMMITTED', endedAt: now.toISOString() });
    },
    reserved,
    all: (now) => [...holds.values()].map((hold) => structuredClone(settle(hold, now))),
  };
}
