// an IMEI may be linked to at most one active financing (AUTHORIZED within R-06, or CONFIRMED).
import type { AuthorizationRecord } from '../ports/records.js';
import { effectiveStatus } from './r06-expiry.js';

/** The statuses that hold an IMEI; a pending cancellation notice keeps the status, so it holds it too. */
export const R10_ACTIVE_STATUSES: ReadonlySet<AuthorizationRecord['status']> = new Set([
  'AUTHORIZED',
  'CONFIRMED',
]);

export function isR10Active(record: Pick<AuthorizationRecord, 'status' | 'expiresAt'>, now: Date): boolean {
  return R10_ACTIVE_STATUSES.has(effectiveStatus(record, now));
}

/** `imei_already_financed` when `existing` (the IMEI's current holder, if any) is still active. */
export function checkR10Imei(
  existing: Pick<AuthorizationRecord, 'status' | 'expiresAt'> | undefined,
  now: Date,
): { ok: true } | { ok: false; code: 'imei_already_financed' } {
  return existing && isR10Active(existing, now) ? { ok: false, code: 'imei_already_financed' } : { ok: true };
}
