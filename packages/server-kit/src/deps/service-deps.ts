// What every part of the service is given: ports, registered clients and the resolved settings.
import { type Clock, endpoints, type Logger } from '@fin/core';
import type { MutualTls } from '@fin/core/transport';
import type { CreditEngine } from '../ports/credit-engine.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { RetentionPolicy } from '../ports/retention.js';
import type { Store } from '../ports/store.js';
import { DEFAULT_CONFIRMATION_GRACE_MS } from '../rules/r06-time-window.js';
import type { ProposalReusePolicy } from '../rules/r11-reuse.js';
import type { ClientRegistry } from './clients.js';
import type { ProxyTrust } from './proxy-trust.js';

/** Limits and durations, each with the spec's value (section 8) or ours (docs/spec-decisions.md). */
export interface ServiceLimits {
  /** System token validity: 3600 s. */
  tokenTtlSeconds: number;
  /** Token issuance per client_id per minute: 60, counted only for requests whose credentials are right. */
  tokensPerMinute: number;
  /** Failed token authentications per client_id per minute before they are answered 429: 30 (decision S-25). */
  tokenFailuresPerMinute: number;
  /** Failed token authentications per source (peer address) per minute before they are answered 429: 30. */
  tokenFailuresPerSourcePerMinute: number;
  /** Write calls (authorize, confirm, cancel) per client per minute: 120. */
  writesPerMinute: number;
  /** Read calls (`GET /v1/sales/{id}`) per client per minute: 600. */
  readsPerMinute: number;
  /** Largest request body: 64 KiB. */
  maxBodyBytes: number;
  /** How long an idempotent answer is replayed: 24 h. */
  idempotencyRetentionMs: number;
  /** How long an unfinished request blocks its key before another instance may take it over: 30 s. */
  idempotencyLeaseMs: number;
  /** How long a duplicate waits for the first request's answer before a 409 in progress: 10 s (or its deadline). */
  idempotencyWaitMs: number;
  /** A request still running after this is answered 503 `service_unavailable` (under the clients' 10 s): 8 s. */
  requestDeadlineMs: number;
  /** How long the cancel call waits for the partner's sale search before leaving it to the verifier: 5 s. */
  saleSearchTimeoutMs: number;
  /** The confirmation poller searches an unconfirmed sale at most once per this period: 60 s. */
  confirmationPollMs: number;
  /**
   * A sale invoiced in time may be confirmed (by the POS or the poller) at most this long after the
   * authorization expired: 1 h, at most 7 days (decision S-22).
   */
  confirmationGraceMs: number;
  /** How long `service.health()` waits for the store's ping before calling it down: 1 s. */
  healthCheckTimeoutMs: number;
  /** How long `close()` waits for requests and worker runs in progress before releasing the store: 10 s. */
  shutdownTimeoutMs: number;
}

export const defaultLimits: ServiceLimits = {
  tokenTtlSeconds: 3600,
  tokensPerMinute: endpoints.perMinuteOf.token,
  tokenFailuresPerMinute: 30,
  tokenFailuresPerSourcePerMinute: 30,
  writesPerMinute: endpoints.perMinuteOf.write,
  readsPerMinute: endpoints.perMinuteOf.read,
  maxBodyBytes: 64 * 1024,
  idempotencyRetentionMs: 24 * 3_600_000,
  idempotencyLeaseMs: 30_000,
  idempotencyWaitMs: 10_000,
  requestDeadlineMs: 8_000,
  saleSearchTimeoutMs: 5_000,
  confirmationPollMs: 60_000,
  confirmationGraceMs: DEFAULT_CONFIRMATION_GRACE_MS,
  healthCheckTimeoutMs: 1_000,
  shutdownTimeoutMs: 10_000,
};

export interface ServiceSettings {
  /** Credentials of another environment are `invalid_client`. */
  environment: string;
  r11: ProposalReusePolicy;
  /** Installments of a proposal approved without a count. */
  installments: number;
  /** The largest financed grandTotal, in cents (decision C-18). */
  maxGrandTotal: number;
  /** How far a partner's clock may be off ours when dating an invoice or a cancellation (decision S-21). */
  clockSkewMs: number;
  limits: ServiceLimits;
  /** How long each kind of row is kept (DESIGN 27, `options.retention`). */
  retention: RetentionPolicy;
  /** The TLS-terminating proxy whose certificate header is believed; none unless configured. */
  trustedProxy: ProxyTrust | undefined;
  /** `'required'`: every client is bound to a certificate and every token to one of them (decision TLS-13). */
  mutualTls: MutualTls;
}

export interface ServiceDeps {
  store: Store;
  clock: Clock;
  logger: Logger | undefined;
  credit: CreditEngine;
  clients: ClientRegistry;
  rateLimiter: RateLimiter;
  settings: ServiceSettings;
  /** Aborted when `close()` begins: requests are refused from then on, workers stop between items. */
  stopping: AbortSignal;
}
