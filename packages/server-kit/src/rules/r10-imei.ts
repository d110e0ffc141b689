// an IMEI may be linked to at most one active financing (AUTHORIZED within R-06, or CONFIRMED).
import type { AuthorizationRecord } from '../ports/records.js';
import { effectiveStatus } from './r06-expiry.js';

/** the statuses that hold an IMEI; a pending cancellation notice keeps the status, so it holds it too. */
export const IMEI_HOLDING_STATUSES: ReadonlySet<AuthorizationRecord['status']> = new Set([
  'AUTHORIZED',
  'CONFIRMED',
]);

/** whether this authorization holds its IMEI at `now` (an overdue `AUTHORIZED` one does not). */
export function holdsImei(record: Pick<AuthorizationRecord, 'status' | 'expiresAt'>, now: Date): boolean {
  return IMEI_HOLDING_STATUSES.has(effectiveStatus(record, now));
}

/** `imei_already_financed` when `existing` (the IMEI's current holder, if any) is still active. */
export function checkImeiNotFinanced(
  existing: Pick<AuthorizationRecord, 'status' | 'expiresAt'> | undefined,
  now: Date,
): { ok: true } | { ok: false; code: 'imei_already_financed' } {
  return existing && holdsImei(existing, now) ? { ok: false, code: 'imei_already_financed' } : { ok: true };
}
