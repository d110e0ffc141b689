// What the holds worker does next with one hold, decided from the hold and its proposal's authorizations: a pure function of `now`.
import { schemas } from '@fin/core';
import type { HoldRecord, HoldReleaseReason } from '../ports/hold-record.js';
import type { AuthorizationRecord } from '../ports/records.js';
import { effectiveStatus } from '../rules/r06-expiry.js';

export type HoldStep =
  /** Ask the partner to release it (idempotent: an ended hold answers its state). */
  | { kind: 'release'; reason: HoldReleaseReason }
  /** Make it last until the authorization's `expiresAt` plus the confirmation grace (HOLD-5). */
  | { kind: 'extend'; authorizationId: string; ttlSeconds: number }
  /** Read the partner's state: the sale was confirmed (committed at invoicing), or the hold's own expiry passed. */
  | { kind: 'read' }
  /** Nothing to do before `until`. */
  | { kind: 'wait'; until: Date };

export interface HoldPlanLimits {
  /** How long a sale invoiced in time may still be confirmed after the authorization expired. */
  confirmationGraceMs: number;
  /** The longest wait between two looks at a hold kept for an authorization: 60 s (HOLD-7). */
  checkEveryMs: number;
}

/** The authorization the hold serves: its proposal's newest use (the highest `proposalUse`). */
function servedBy(uses: readonly AuthorizationRecord[]): AuthorizationRecord | undefined {
  let newest: AuthorizationRecord | undefined;
  for (const use of uses) if (!newest || use.proposalUse > newest.proposalUse) newest = use;
  return newest;
}

/** Seconds from `now` to `until`, within the partner's TTL bounds (SR-4: 900 to 7200). */
export function ttlUntil(until: number, now: Date): number {
  const seconds = Math.ceil((until - now.getTime()) / 1000);
  const { minSeconds, maxSeconds } = schemas.reservationTtl;
  return Math.min(maxSeconds, Math.max(minSeconds, seconds));
}

/**
 * HOLD-4..HOLD-6: released when the service asked (credit declined), when its authorization expired
 * unconfirmed or when a cancellation was verified; extended once per authorization; read once the sale
 * was confirmed (the POS commits it at invoicing) or once its own expiry passed; otherwise left until
 * the next look. `uses` are the authorizations of the hold's proposal (none while it is unlinked).
 */
export function planHold(
  hold: HoldRecord,
  uses: readonly AuthorizationRecord[],
  now: Date,
  limits: HoldPlanLimits,
): HoldStep {
  if (hold.releaseReason) return { kind: 'release', reason: hold.releaseReason };
  const holdEnds = Date.parse(hold.expiresAt);
  const authorization = servedBy(uses);
  const later = (until: number): HoldStep => ({
    kind: 'wait',
    until: new Date(Math.min(until, holdEnds, now.getTime() + limits.checkEveryMs)),
  });
  if (!authorization) return holdEnds <= now.getTime() ? { kind: 'read' } : later(holdEnds);
  switch (effectiveStatus(authorization, now)) {
    case 'AUTHORIZED': {
      if (authorization.cancellation?.verification === 'VERIFIED') {
        return { kind: 'release', reason: 'CANCELLATION_VERIFIED' };
      }
      if (hold.extendedFor === authorization.authorizationId)
        return later(Date.parse(authorization.expiresAt));
      const until = Date.parse(authorization.expiresAt) + limits.confirmationGraceMs;
      return {
        kind: 'extend',
        authorizationId: authorization.authorizationId,
        ttlSeconds: ttlUntil(until, now),
      };
    }
    case 'CONFIRMED':
      return { kind: 'read' };
    case 'CANCELLED':
      return { kind: 'release', reason: 'CANCELLATION_VERIFIED' };
    case 'EXPIRED':
      return { kind: 'release', reason: 'AUTHORIZATION_EXPIRED' };
  }
}
