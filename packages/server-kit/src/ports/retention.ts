// How long each kind of stored row is kept (DESIGN 27): the one retention options object, its defaults, its checks, and what a purge reports.
import * as z from 'zod';

const DAY_MS = 86_400_000;
const duration = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/**
 * Every retention of the store's lifecycle table (docs/operations.md), in milliseconds. Idempotency
 * answers are kept `limits.idempotencyRetentionMs` (the spec's 24 h), which stays a service limit.
 */
export const retentionPolicy = z
  .object({
    /** A system token is kept this long after it expired: 1 day. */
    tokensMs: duration.default(DAY_MS),
    /** A stock hold that ended (released, expired or committed) is kept this long after its last change: 7 days. */
    endedHoldsMs: duration.default(7 * DAY_MS),
    /**
     * A proposal no authorization has used is offered this long after its approval, then expires and is
     * deleted (CPF minimised): 30 days.
     */
    unusedProposalsMs: duration.default(30 * DAY_MS),
    /** A DELIVERED webhook event is kept this long after its delivery (support, `webhooks.list`): 30 days. */
    deliveredEventsMs: duration.default(30 * DAY_MS),
    /** A DEAD webhook event is kept this long after it occurred, past the replay window: 90 days. */
    deadEventsMs: duration.default(90 * DAY_MS),
    /**
     * A `CANCELLED` authorization (a credit record) moves, with its contract and proposal, from the live
     * tables to the monthly archive this long after its last change: 30 days.
     */
    cancelledAuthorizationsMs: duration.default(30 * DAY_MS),
    /**
     * An `EXPIRED` authorization (never confirmed: no credit was granted) is deleted this long after it was
     * stored `EXPIRED` (personal data minimised): 7 days.
     */
    expiredAuthorizationsMs: duration.default(7 * DAY_MS),
  })
  .strict()
  .refine((policy) => policy.deadEventsMs >= policy.deliveredEventsMs, {
    message: 'deadEventsMs must be at least deliveredEventsMs (dead events outlive the replay window)',
    path: ['deadEventsMs'],
  });

export type RetentionPolicy = z.infer<typeof retentionPolicy>;
export type RetentionOptions = z.input<typeof retentionPolicy>;

export const defaultRetention: RetentionPolicy = retentionPolicy.parse({});

/**
 * A purge run's input: `retentionMs` is the idempotency retention (the service's
 * `limits.idempotencyRetentionMs`); `retention` the rest (the defaults when absent).
 */
export interface PurgeInput {
  now: Date;
  retentionMs: number;
  retention?: RetentionPolicy;
}

/** Rows each step of one purge run deleted (or, for `archivedAuthorizations`, moved to the archive). */
export interface PurgeReport {
  tokens: number;
  idempotencyKeys: number;
  rateLimitWindows: number;
  endedHolds: number;
  webhookEvents: number;
  expiredAuthorizations: number;
  archivedAuthorizations: number;
  proposals: number;
}

/**
 * A purge deletes an unused proposal only this long after it stopped being offered: more than any
 * request that read it while it was still offered may take to write its authorization.
 */
export const PROPOSAL_PURGE_MARGIN_MS = 60_000;

/** Whether an unused proposal approved at `approvedAt` may still be offered at `now` (decision LC-3). */
export const isProposalOffered = (approvedAt: string, now: Date, policy: RetentionPolicy) =>
  Date.parse(approvedAt) + policy.unusedProposalsMs > now.getTime();
