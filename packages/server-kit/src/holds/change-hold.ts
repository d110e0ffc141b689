// Finds a hold the service made by its store and reservation id, and changes it by compare-and-set, reading again when another writer got there first.
import { FinApiError, schemas } from '@fin/core';
import * as z from 'zod';
import type { ServiceDeps } from '../deps/service-deps.js';
import { validate } from '../http/validate.js';
import type { HoldRecord } from '../ports/hold-record.js';
import { holdStoreOf } from './hold-store-of.js';

/** Names a hold as its caller knows it: the store it was placed at and the partner's reservation id. */
export const holdReference = z.object({ storeId: schemas.shortId, reservationId: schemas.shortId });
export type HoldReference = z.input<typeof holdReference>;

/** A change refused for this hold: thrown as is by `changeHold`. */
export type HoldChange = (hold: HoldRecord) => HoldRecord | FinApiError;

const notFound = (field: string) =>
  new FinApiError({
    code: 'reservation_not_found',
    details: [{ field, issue: 'the service made no hold with this reservationId at this store' }],
  });

/**
 * Applies `change` to the hold `reference` names, again on the fresh record while another writer wins
 * (the holds worker, another instance). Throws `validation_error`, `reservation_not_found` or what
 * `change` returns as an error.
 */
export async function changeHold(
  deps: ServiceDeps,
  reference: HoldReference,
  change: HoldChange,
  field = 'reservationId',
): Promise<HoldRecord> {
  const checked = validate(holdReference, reference);
  if (!checked.ok) throw new FinApiError({ code: checked.code, details: checked.details });
  const holds = holdStoreOf(deps.store);
  const partnerId = deps.clients.holdsFor(checked.data.storeId)?.clientId;
  if (!partnerId) throw notFound(field);
  for (;;) {
    const hold = await holds.getHold({ partnerId, reservationId: checked.data.reservationId });
    if (!hold || hold.storeId !== checked.data.storeId) throw notFound(field);
    const next = change(hold);
    if (next instanceof FinApiError) throw next;
    if (next === hold) return hold;
    const record = { ...next, version: hold.version + 1, updatedAt: deps.clock.now().toISOString() };
    const written = await holds.updateHold({ record, expectedVersion: hold.version });
    if (written.ok) return written.record;
  }
}
