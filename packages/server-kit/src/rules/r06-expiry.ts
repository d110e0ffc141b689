// an authorization is valid for 15 minutes from issue; expiry is read from the clock, never a timer.
import type { AuthorizationRecord } from '../ports/records.js';

/** an authorization is valid for 15 minutes after issue. */
export const AUTHORIZATION_VALIDITY_MS = 15 * 60_000;

/** `expiresAt` of an authorization issued at `issuedAt`. */
export function authorizationExpiresAt(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + AUTHORIZATION_VALIDITY_MS);
}

/** true once `now` reaches `expiresAt` of a record still stored as `AUTHORIZED`. */
export function isAuthorizationExpired(
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
  return isAuthorizationExpired(record, now) ? 'EXPIRED' : record.status;
}
