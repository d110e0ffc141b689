// service.holds.place: the financing service holds a device at the partner POS after the seller's IMEI validation (issue 30).
import { FinApiError, schemas } from '@fin/core';
import * as z from 'zod';
import type { ServiceDeps } from '../deps/service-deps.js';
import { validate } from '../http/validate.js';
import type { HoldRecord } from '../ports/hold-record.js';
import { holdStoreOf } from './hold-store-of.js';

export const placeHoldInput = z.object({
  storeId: schemas.shortId,
  imei: schemas.imei,
  /** How long the partner keeps it before it is linked and extended: default 1800 s (SR-4). */
  ttlSeconds: schemas.reservationExtendRequest.shape.ttlSeconds,
});
export type PlaceHoldInput = z.input<typeof placeHoldInput>;

/** The hold made, or a partner without the capability (HOLD-2): never an error, the sale goes on without it. */
export type HoldPlacement = { held: true; hold: HoldRecord } | { held: false; reason: 'not_supported' };

/**
 * HOLD-1, HOLD-2: reserves the device at the partner owning `storeId` and keeps the hold for the holds
 * worker. A partner without stock holds (not registered with `stockHolds`, or answering 404/501) is
 * `{ held: false }`. Throws a FinApiError for input it cannot accept (`validation_error`,
 * `store_not_found`) and the partner's refusals (`imei_already_reserved`, `imei_not_in_stock`).
 */
export async function placeHold(deps: ServiceDeps, input: PlaceHoldInput): Promise<HoldPlacement> {
  const checked = validate(placeHoldInput, input);
  if (!checked.ok) throw new FinApiError({ code: checked.code, details: checked.details });
  const { storeId, imei, ttlSeconds } = checked.data;
  const holds = holdStoreOf(deps.store);
  if (!deps.clients.ownsStore(storeId)) {
    throw new FinApiError({
      code: 'store_not_found',
      details: [{ field: 'storeId', issue: 'no registered client owns this store' }],
    });
  }
  const partner = deps.clients.holdsFor(storeId);
  if (!partner?.stockHolds) return { held: false, reason: 'not_supported' };
  const outcome = await partner.stockHolds
    .store(storeId)
    .stock.reserve({ imei, ...(ttlSeconds ? { ttlSeconds } : {}) });
  if (!outcome.supported) return { held: false, reason: 'not_supported' };
  const now = deps.clock.now().toISOString();
  const hold: HoldRecord = {
    partnerId: partner.clientId,
    reservationId: outcome.reservation.reservationId,
    storeId,
    imei,
    proposalId: null,
    state: outcome.reservation.state,
    expiresAt: outcome.reservation.expiresAt,
    releaseReason: null,
    extendedFor: null,
    attempts: 0,
    // The worker's first look: an unlinked hold waits for its link or its own expiry.
    nextCheckAt: now,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await holds.insertHold(hold);
  deps.logger?.info?.({ event: 'hold.placed', storeId, reservationId: hold.reservationId });
  return { held: true, hold };
}
