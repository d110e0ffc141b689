// The authorization state machine of DESIGN 2: which confirm and cancel are allowed from which status.
import type { ConfirmRequest, ErrorCode, ErrorDetail } from '@fin/core';
import type { AuthorizationRecord } from '../ports/records.js';
import { effectiveStatus } from './r06-expiry.js';
import { checkConfirmTime, defaultTimeWindowPolicy, type TimeWindowPolicy } from './r06-time-window.js';

export type TransitionRefusal = { ok: false; code: ErrorCode; details: ErrorDetail[] };

const refuse = (code: ErrorCode, status: string, issue: string): TransitionRefusal => ({
  ok: false,
  code,
  details: [{ field: 'status', issue: `${status}: ${issue}` }],
});

const sameConfirmation = (a: ConfirmRequest, b: ConfirmRequest) =>
  a.saleNumber === b.saleNumber &&
  a.invoiceNumber === b.invoiceNumber &&
  a.nfeAccessKey === b.nfeAccessKey &&
  Date.parse(a.invoicedAt) === Date.parse(b.invoicedAt);

/**
 * Confirm (`POST /v1/sales/{id}/confirm`):
 * - `AUTHORIZED` -> `CONFIRMED` when `invoicedAt` is within the 15 minutes (R-06, `checkConfirmTime`);
 * - expired (`EXPIRED`, or `AUTHORIZED` past `expiresAt`) -> `CONFIRMED` too when the invoice was issued
 *   within the 15 minutes and the confirm arrives within the grace period (a late confirm), else
 *   `authorization_expired`;
 * - `CONFIRMED` with the same invoice data: `already` (answer the existing contract); other data:
 *   `invalid_state_transition`;
 * - `CANCELLED`, or a cancellation notice still pending: `invalid_state_transition`.
 */
export function checkConfirmTransition(
  record: AuthorizationRecord,
  confirmation: ConfirmRequest,
  now: Date,
  policy: TimeWindowPolicy = defaultTimeWindowPolicy,
): { ok: true; already: boolean } | TransitionRefusal {
  const status = effectiveStatus(record, now);
  if (status === 'CONFIRMED') {
    return record.confirmation && sameConfirmation(record.confirmation, confirmation)
      ? { ok: true, already: true }
      : refuse('invalid_state_transition', status, 'already confirmed with other invoice data');
  }
  if (status === 'CANCELLED')
    return refuse('invalid_state_transition', status, 'a cancelled sale cannot be confirmed');
  if (record.cancellation?.verification === 'PENDING') {
    return refuse('invalid_state_transition', status, 'a cancellation notice is being verified');
  }
  const time = checkConfirmTime(record, confirmation.invoicedAt, now, policy);
  return time.ok ? { ok: true, already: false } : time;
}

/**
 * Cancel notice (`POST /v1/sales/{id}/cancel`):
 * - `AUTHORIZED` or `CONFIRMED` (a pending or contradicted notice included): record the notice, verify;
 * - `CANCELLED`: `already` (answer the current state, nothing changes);
 * - expired: `invalid_state_transition` (nothing was financed, nothing to cancel).
 */
export function checkCancelTransition(
  record: AuthorizationRecord,
  now: Date,
): { ok: true; already: boolean } | TransitionRefusal {
  const status = effectiveStatus(record, now);
  if (status === 'CANCELLED') return { ok: true, already: true };
  if (status === 'EXPIRED') {
    return refuse('invalid_state_transition', status, 'an expired authorization financed nothing to cancel');
  }
  return { ok: true, already: false };
}
