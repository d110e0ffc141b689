// What every part of the service is given: ports, registered clients and the resolved settings.
import { type Clock, endpoints, type Logger } from '@fin/core';
import type { ClientRegistry } from '../auth/client-registry.js';
import type { CreditEngine } from '../ports/credit-engine.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { Store } from '../ports/store.js';
import type { ProposalReusePolicy } from '../rules/r11-reuse.js';

/** Limits and durations, each with the spec's value (section 8) or ours (docs/spec-decisions.md). */
export interface ServiceLimits {
  /** System token validity: 3600 s. */
  tokenTtlSeconds: number;
  /** Token issuance per client_id per minute: 60. */
  tokensPerMinute: number;
  /** Write calls (authorize, confirm, cancel) per client per minute: 120. */
  writesPerMinute: number;
  /** Largest request body: 64 KiB. */
  maxBodyBytes: number;
  /** How long an idempotent answer is replayed: 24 h. */
  idempotencyRetentionMs: number;
  /** How long an unfinished request blocks its key before another instance may take it over: 30 s. */
  idempotencyLeaseMs: number;
  /** How long a duplicate waits for the first request's answer before a 409 in progress: 10 s. */
  idempotencyWaitMs: number;
  /** How long the cancel call waits for the partner's sale search before leaving it to the verifier: 5 s. */
  saleSearchTimeoutMs: number;
  /** The confirmation poller searches an unconfirmed sale at most once per this period: 60 s. */
  confirmationPollMs: number;
  /** ... and stops this long after the authorization expired (the POS's delay in showing ACTIVE): 1 h. */
  confirmationGraceMs: number;
}

export const defaultLimits: ServiceLimits = {
  tokenTtlSeconds: 3600,
  tokensPerMinute: endpoints.perMinuteOf.token,
  writesPerMinute: endpoints.perMinuteOf.write,
  maxBodyBytes: 64 * 1024,
  idempotencyRetentionMs: 24 * 3_600_000,
  idempotencyLeaseMs: 30_000,
  idempotencyWaitMs: 10_000,
  saleSearchTimeoutMs: 5_000,
  confirmationPollMs: 60_000,
  confirmationGraceMs: 3_600_000,
};

export interface ServiceSettings {
  /** Credentials of another environment are `invalid_client`. */
  environment: string;
  r11: ProposalReusePolicy;
  /** Installments of a proposal approved without a count. */
  installments: number;
  limits: ServiceLimits;
}

export interface ServiceDeps {
  store: Store;
  clock: Clock;
  logger: Logger | undefined;
  credit: CreditEngine;
  clients: ClientRegistry;
  rateLimiter: RateLimiter;
  settings: ServiceSettings;
}
