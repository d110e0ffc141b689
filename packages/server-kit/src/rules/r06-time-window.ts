// Spec 1.4 and R-06 at the edge (decisions S-21 to S-24): when an invoice may be dated, a confirm arrive, a cancellation be dated.
import type { ErrorCode, ErrorDetail } from '@fin/core';
import type { AuthorizationRecord } from '../ports/records.js';

/** Default allowance for a partner's clock being off ours: 2 minutes. */
export const DEFAULT_CLOCK_SKEW_MS = 2 * 60_000;
/** The allowance may not exceed the authorization's own life (15 minutes). */
export const MAX_CLOCK_SKEW_MS = 15 * 60_000;
/** The late-confirm grace may not exceed 7 days, so every installment falls due after the confirmation. */
export const MAX_CONFIRMATION_GRACE_MS = 7 * 86_400_000;

/** Default late-confirm grace after `expiresAt`: 1 hour. */
export const DEFAULT_CONFIRMATION_GRACE_MS = 3_600_000;

export interface TimeWindowPolicy {
  clockSkewMs: number;
  /** How long after `expiresAt` a sale invoiced in time may still be confirmed. */
  confirmationGraceMs: number;
}

export const defaultTimeWindowPolicy: TimeWindowPolicy = {
  clockSkewMs: DEFAULT_CLOCK_SKEW_MS,
  confirmationGraceMs: DEFAULT_CONFIRMATION_GRACE_MS,
};

export type TimeWindowResult = { ok: true } | { ok: false; code: ErrorCode; details: ErrorDetail[] };

const refuse = (code: ErrorCode, field: string, issue: string): TimeWindowResult => ({
  ok: false,
  code,
  details: [{ field, issue }],
});

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A confirm of `record` arriving at `now`: `invoicedAt` within the authorization's life, from its issue
 * (less the skew) to `expiresAt` (exactly), and never beyond `now` + skew (`validation_error` before the
 * issue or in the future, `authorization_expired` after the expiry); the confirm itself at most the grace
 * after `expiresAt` (`authorization_expired`).
 */
export function checkConfirmTime(
  record: Pick<AuthorizationRecord, 'issuedAt' | 'expiresAt'>,
  invoicedAt: string,
  now: Date,
  policy: TimeWindowPolicy = defaultTimeWindowPolicy,
): TimeWindowResult {
  const invoiced = Date.parse(invoicedAt);
  const issued = Date.parse(record.issuedAt);
  const expires = Date.parse(record.expiresAt);
  const { clockSkewMs: skew } = policy;
  if (invoiced > now.getTime() + skew) {
    return refuse('validation_error', 'invoicedAt', `is in the future (now ${now.toISOString()})`);
  }
  if (invoiced < issued - skew) {
    return refuse(
      'validation_error',
      'invoicedAt',
      `is before the authorization was issued at ${record.issuedAt} (allowance ${skew} ms)`,
    );
  }
  // The 15 minutes are the spec's one hard lock: no allowance after the expiry.
  if (invoiced > expires) {
    return refuse(
      'authorization_expired',
      'invoicedAt',
      `after the authorization expired at ${record.expiresAt}`,
    );
  }
  if (now.getTime() > expires + policy.confirmationGraceMs) {
    return refuse(
      'authorization_expired',
      'id',
      `confirmed after the grace period, which ended at ${iso(expires + policy.confirmationGraceMs)}`,
    );
  }
  return { ok: true };
}

/** A cancellation dated `cancelledAt`: not before the authorization was issued nor in the future, give or take the skew. */
export function checkCancelledAt(
  record: Pick<AuthorizationRecord, 'issuedAt'>,
  cancelledAt: string | undefined,
  now: Date,
  policy: Pick<TimeWindowPolicy, 'clockSkewMs'> = defaultTimeWindowPolicy,
): TimeWindowResult {
  if (cancelledAt === undefined) return { ok: true };
  const cancelled = Date.parse(cancelledAt);
  const { clockSkewMs: skew } = policy;
  if (cancelled > now.getTime() + skew) {
    return refuse('validation_error', 'cancelledAt', `is in the future (now ${now.toISOString()})`);
  }
  if (cancelled < Date.parse(record.issuedAt) - skew) {
    return refuse(
      'validation_error',
      'cancelledAt',
      `is before the authorization was issued at ${record.issuedAt}`,
    );
  }
  return { ok: true };
}
