// an authorization is valid for 15 minutes from issue; expiry is read from the clock, never a timer.
import type { AuthorizationRecord } from '../ports/records.js';

export const R06_VALIDITY_MS = 15 * 60_000;

/** `expiresAt` of an authorization issued at `issuedAt`. */
export function r06ExpiresAt(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + R06_VALIDITY_MS);
}

/** True once `now` reaches `expiresAt` of a record still stored as `AUTHORIZED`. */
export function checkR06Expired(
  record: Pick<AuthorizationRecord, 'status' | 'expiresAt'>,
  now: Date,
): boolean {
  return record.status === 'AUTHORIZED' && Date.parse(record.expiresAt) <= now.getTime();
}

/** The status a reader must see: `EXPIRED` for an overdue `AUTHORIZED` record, the stored one otherwise. */
export function effectiveStatus(
  record: Pick<AuthorizationRecord, 'status' | 'expiresAt'>,
  now: Date,
): AuthorizationRecord['status'] {
  return checkR06Expired(record, now) ? 'EXPIRED' : record.status;
}
