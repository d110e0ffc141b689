// createFinancingService(options): the Sales Authorization API as a Web-standard fetch, with its proposals and workers.
import { type Clock, type Logger, MAX_SALE_AMOUNT_CENTS, systemClock } from '@fin/core';
import { createInstrumentation, isMutualTls, type MutualTls } from '@fin/core/transport';
import { createClientRegistry } from '../auth/client-registry.js';
import { proxyTrust } from '../auth/presented-certificate.js';
import type { ClientRegistration } from '../deps/clients.js';
import type { TrustedProxy } from '../deps/proxy-trust.js';
import {
  defaultLimits,
  type ServiceDeps,
  type ServiceLimits,
  type ServiceSettings,
} from '../deps/service-deps.js';
import type { WorkerRunOptions } from '../deps/stop-signal.js';
import { changeHold, type HoldReference } from '../holds/change-hold.js';
import { type HoldPlacement, type PlaceHoldInput, placeHold } from '../holds/place-hold.js';
import { requestHoldRelease } from '../holds/release-hold.js';
import { fromRequest, type RequestInfo, toResponse } from '../http/fetch-adapter.js';
import type { PlainRequest, PlainResponse } from '../http/plain.js';
import { matchEndpoint } from '../http/routes.js';
import { memoryStore } from '../memory/memory-store.js';
import type { CreditEngine } from '../ports/credit-engine.js';
import type { HoldRecord } from '../ports/hold-record.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { PurgeReport, RetentionOptions } from '../ports/retention.js';
import type { Store } from '../ports/store.js';
import {
  DEFAULT_CLOCK_SKEW_MS,
  MAX_CLOCK_SKEW_MS,
  MAX_CONFIRMATION_GRACE_MS,
} from '../rules/r06-time-window.js';
import { defaultProposalReusePolicy, type ProposalReusePolicy } from '../rules/r11-reuse.js';
import { traceRequests } from '../telemetry/request-telemetry.js';
import { sdkInfo } from '../telemetry/sdk-info.js';
import { tracedCreditEngine, tracedStore } from '../telemetry/traced-ports.js';
import { watchWorkerLag } from '../telemetry/worker-lag.js';
import {
  type ApprovedProposal,
  type ApproveProposalInput,
  approveProposal,
} from '../use-cases/approve-proposal.js';
import {
  createWebhookOperations,
  type WebhookDeliveryOptions,
  type WebhookOperations,
} from '../webhooks/webhook-service.js';
import { watchWebhookBacklog } from '../webhooks/webhook-telemetry.js';
import { type ExpirySummary, expireAuthorizations } from '../workers/authorization-expiry.js';
import { type VerificationSummary, verifyCancellations } from '../workers/cancellation-verifier.js';
import { type ConfirmationPollSummary, pollConfirmations } from '../workers/confirmation-poller.js';
import { type HoldKeeperSummary, keepHolds } from '../workers/hold-keeper.js';
import type { WorkerLoop } from '../workers/worker-loop.js';
import { createRequestHandler } from './handle-request.js';
import { createHealthCheck, type HealthReport } from './health.js';
import { createInFlight } from './in-flight.js';
import { createOutageMonitor } from './outage.js';
import { createProbes, type HealthPaths } from './probes.js';
import { type ReadinessOptions, resolveReadiness } from './readiness.js';
import { resolveRetention } from './retention-settings.js';
import { shutdown } from './shutdown.js';
import { warnUnverifiableCancellations } from './unverifiable-cancellations.js';

export interface FinancingServiceOptions {
  /** The partners allowed to call the API. */
  clients: readonly ClientRegistration[];
  /** The new credit analysis when no proposal can be used (DESIGN 1c); `sandboxCreditEngine()` for tests. */
  credit: CreditEngine;
  /** Default `memoryStore()`; `postgresStore(...)` from `@fin/server-kit/postgres` for several instances. */
  store?: Store;
  /** Default the system clock; tests inject one and move time. */
  clock?: Clock;
  /** Receives one redacted entry per request (`http.request`) and failures. */
  logger?: Logger;
  rules?: {
    /** `{ windowDays: 7, ceiling: 100 (% of the approved amount), limit: 1, timeZone }`. */
    r11?: Partial<ProposalReusePolicy>;
    /** Installments of a proposal approved without a count; default 10. */
    installments?: number;
    /**
     * The largest financed `grandTotal` (and approved amount), in cents: default and upper bound
     * `MAX_SALE_AMOUNT_CENTS` of `@fin/core` (R$ 100.000,00); a deployment may lower it.
     */
    maxGrandTotal?: number;
    /**
     * How far a partner's clock may be off ours, in ms: `invoicedAt` and `cancelledAt` may fall this much
     * before the authorization's issue or in the future (never after `expiresAt`: R-06).
     * Default 120 000 (2 minutes), at most 900 000.
     */
    clockSkewMs?: number;
  };
  /** This deployment's environment; a credential of another is `invalid_client`. Default `sandbox`. */
  environment?: string;
  limits?: Partial<ServiceLimits>;
  /** How long each kind of stored row is kept (DESIGN 27, docs/operations.md's lifecycle table); defaults per field. */
  retention?: RetentionOptions;
  /** Default: the store's own counters (shared by every instance on that store). */
  rateLimiter?: RateLimiter;
  /**
   * Probe routes answered by `fetch` and `toNodeHandler`, off unless given: e.g.
   * `{ live: '/healthz', ready: '/readyz' }` (docs/operations.md). No token is needed or looked at.
   */
  healthPaths?: HealthPaths;
  /**
   * Readiness hysteresis (docs/operations.md): not ready after `failuresBeforeNotReady` (3) failed store
   * checks in a row, ready again after `successesBeforeReady` (2) passed ones; a request refused 503 for the
   * store within `writeRefusalWindowMs` (5000) fails the check even when the ping answers.
   */
  readiness?: ReadinessOptions;
  /**
   * Behind a TLS-terminating proxy (docs/mtls.md): the header it writes the client certificate into, and
   * its addresses. Off by default: a certificate header is never read unless this names it.
   */
  trustedProxy?: TrustedProxy;
  /**
   * `'required'` in production (spec v2.0, docs/mtls.md): the service refuses to start unless every client
   * has `certificate`, and refuses every call not made with the caller's bound certificate (the token
   * request `invalid_client`, an API call `invalid_token`). Default `'optional'`: binding is per client.
   */
  mutualTls?: MutualTls;
  /** How webhooks (`clients[].webhooks`) reach receivers: `{ fetch?, random?, timeoutMs? }`. */
  webhookDelivery?: WebhookDeliveryOptions;
}

export interface FinancingService {
  /**
   * The whole API as a Web-standard handler (Deno, Bun, Hono, msw, tests). `info.source`, the peer
   * address when the host knows it, lets failed token requests be limited per source too.
   */
  fetch(request: Request, info?: RequestInfo): Promise<Response>;
  /** The plain-data core the adapters call (`toNodeHandler`). */
  handle(request: PlainRequest): Promise<PlainResponse>;
  /** The probe paths it answers (`options.healthPaths`), so a framework adapter routes them to it. */
  readonly healthPaths: Readonly<HealthPaths>;
  /** Liveness and readiness: the store's ping (bounded by `limits.healthCheckTimeoutMs`), attached workers, closing. */
  health(): Promise<HealthReport>;
  /**
   * Graceful shutdown, at once: readiness false, new requests 503 with `Retry-After` and
   * `Connection: close`, workers stop between items. Then waits (at most `limits.shutdownTimeoutMs`)
   * for the requests and worker runs in progress, and closes the store if the service created it (a
   * store you passed is yours to close, after this). Calling it again returns the same promise.
   */
  close(): Promise<void>;
  proposals: {
    /** The financing team's own credit flow: an approved proposal the next authorization of that CPF and store uses. */
    approve(input: ApproveProposalInput): Promise<ApprovedProposal>;
  };
  /**
   * Stock holds (issue 30), made by the service in its own seller flow, never by an authorize: the
   * partner's `clients[].stockHolds` (a `PosClient`) is called here and by `workers.keepHolds` only.
   */
  holds: {
    /** Holds the device after the seller's IMEI validation; `{ held: false }` when the partner has no holds. */
    place(input: PlaceHoldInput): Promise<HoldPlacement>;
    /** The financing team's credit flow declined (or the sale was dropped): `keepHolds` releases it. */
    release(reference: HoldReference): Promise<HoldRecord>;
    /** The hold as the service last saw it; `reservation_not_found` when it made no such hold. */
    get(reference: HoldReference): Promise<HoldRecord>;
  };
  workers: {
    /** searches the partner POS again for every pending cancellation notice that is due. */
    verifyCancellations(options?: WorkerRunOptions): Promise<VerificationSummary>;
    /** DESIGN 4: confirms, from the partner's sale search, the sales whose POS never called confirm. */
    pollConfirmations(options?: WorkerRunOptions): Promise<ConfirmationPollSummary>;
    /**
     * Issue 30: extends each hold to its authorization's `expiresAt` plus the confirmation grace, releases
     * it when credit was declined, the authorization expired or a cancellation was verified (retried until
     * the partner answers), and records it committed when the POS invoiced.
     */
    keepHolds(options?: WorkerRunOptions): Promise<HoldKeeperSummary>;
    /**
     * Housekeeping (DESIGN 27): every row past its retention (`options.retention`, idempotency 24 h), in
     * bounded batches; ended authorizations archived or deleted. Returns what it removed (a store written
     * before issue 37 reports nothing).
     */
    purgeExpired(): Promise<PurgeReport | undefined>;
    /** Stores `EXPIRED`, with its `authorization.expired` event, once an authorization's confirmation grace ended. */
    expireAuthorizations(options?: WorkerRunOptions): Promise<ExpirySummary>;
    /**
     * Joins a `startWorkerLoop` of this process to the service: readiness reports it (`stopped` once it
     * ends) and `close()` closes it. Returns the loop.
     */
    attach(loop: WorkerLoop): WorkerLoop;
  };
  /** Contract-status webhooks (spec v1.1): the sender's pass, replay and listing (docs/webhooks.md). */
  webhooks: WebhookOperations;
}

function positiveInteger(name: string, value: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new TypeError(
      `createFinancingService: ${name} must be an integer in [${min}, ${max}], got ${String(value)}`,
    );
  }
  return value;
}

function mutualTlsSetting(value: unknown): MutualTls {
  if (!isMutualTls(value)) {
    throw new TypeError("createFinancingService: mutualTls must be 'optional' or 'required'");
  }
  return value ?? 'optional';
}

function resolveSettings(options: FinancingServiceOptions): ServiceSettings {
  const r11 = { ...defaultProposalReusePolicy, ...options.rules?.r11 };
  positiveInteger('rules.r11.windowDays', r11.windowDays, 0);
  positiveInteger('rules.r11.ceiling', r11.ceiling);
  positiveInteger('rules.r11.limit', r11.limit, 0);
  // Throws a RangeError naming the zone when it is unknown.
  new Intl.DateTimeFormat('en', { timeZone: r11.timeZone });
  const limits = { ...defaultLimits, ...options.limits };
  for (const [name, value] of Object.entries(limits)) positiveInteger(`limits.${name}`, value);
  // A late confirm's due dates stay after the confirmation only while the grace is well under a month.
  positiveInteger('limits.confirmationGraceMs', limits.confirmationGraceMs, 1, MAX_CONFIRMATION_GRACE_MS);
  if (limits.idempotencyLeaseMs <= limits.requestDeadlineMs) {
    // A claim must outlive any request that may still be working under it.
    throw new TypeError(
      'createFinancingService: limits.idempotencyLeaseMs must exceed limits.requestDeadlineMs',
    );
  }
  return {
    environment: options.environment ?? 'sandbox',
    r11,
    installments: positiveInteger('rules.installments', options.rules?.installments ?? 10),
    maxGrandTotal: positiveInteger(
      'rules.maxGrandTotal',
      options.rules?.maxGrandTotal ?? MAX_SALE_AMOUNT_CENTS,
      1,
      MAX_SALE_AMOUNT_CENTS,
    ),
    clockSkewMs: positiveInteger(
      'rules.clockSkewMs',
      options.rules?.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS,
      0,
      MAX_CLOCK_SKEW_MS,
    ),
    limits,
    retention: resolveRetention(options.retention, limits, r11),
    trustedProxy: proxyTrust(options.trustedProxy),
    mutualTls: mutualTlsSetting(options.mutualTls),
  };
}

export function createFinancingService(options: FinancingServiceOptions): FinancingService {
  if (!options || !Array.isArray(options.clients)) {
    throw new TypeError('createFinancingService: `clients` must list the partners allowed to call');
  }
  if (typeof options.credit?.analyze !== 'function') {
    throw new TypeError(
      'createFinancingService: `credit` must be a CreditEngine (sandboxCreditEngine() for tests)',
    );
  }
  const settings = resolveSettings(options);
  const store = options.store ?? memoryStore();
  const stopping = new AbortController();
  // Spans and metrics when the host installed @opentelemetry/api (docs/operations.md); no-ops otherwise.
  const instrumentation = createInstrumentation(sdkInfo);
  const traced = tracedStore(store, instrumentation);
  const deps: ServiceDeps = {
    store: traced,
    clock: options.clock ?? systemClock,
    logger: options.logger,
    credit: tracedCreditEngine(options.credit, instrumentation),
    clients: createClientRegistry(options.clients, settings.environment, settings.mutualTls),
    rateLimiter: options.rateLimiter ?? traced,
    settings,
    stopping: stopping.signal,
  };
  warnUnverifiableCancellations(options.clients, options.logger);
  const outage = createOutageMonitor(options.logger, deps.clock);
  const handleRequest = createRequestHandler(deps, outage);
  const inFlight = createInFlight();
  const loops: WorkerLoop[] = [];
  // Probes ping the untraced store: a span every few seconds would bury the requests'.
  const health = createHealthCheck(
    { ...deps, store },
    () => loops,
    resolveReadiness(options.readiness),
    outage.lastRefusal,
  );
  const probe = createProbes(options.healthPaths, health);
  let closing: Promise<void> | undefined;
  const tracedRequest = traceRequests(handleRequest, instrumentation);
  const stopWorkerLag = watchWorkerLag(
    {
      store,
      clock: deps.clock,
      confirmationGraceMs: settings.limits.confirmationGraceMs,
      partnerIds: options.clients.map((client) => client.clientId),
    },
    instrumentation,
  );

  const handle = async (request: PlainRequest): Promise<PlainResponse> => {
    const answered = await (probe(request) ??
      inFlight.track(tracedRequest(request, matchEndpoint(request.method, request.path))));
    // Every answer given while shutting down ends its connection, so the listener can close.
    return stopping.signal.aborted
      ? { ...answered, headers: { ...answered.headers, connection: 'close' } }
      : answered;
  };

  const stopWebhookBacklog = watchWebhookBacklog(
    store,
    options.clients.filter((client) => (client.webhooks ?? []).length > 0).map((client) => client.clientId),
    instrumentation,
  );

  return {
    handle,
    healthPaths: Object.freeze({ ...options.healthPaths }),
    fetch: async (request, info) => toResponse(await handle(fromRequest(request, info))),
    health,
    close: () => {
      // A closing service no longer reads its store for the gauges.
      stopWorkerLag();
      stopWebhookBacklog();
      closing ??= shutdown({
        stopping,
        inFlight,
        loops,
        shutdownTimeoutMs: settings.limits.shutdownTimeoutMs,
        release: async () => {
          if (!options.store) await store.close();
        },
        logger: options.logger,
      });
      return closing;
    },
    proposals: { approve: (input) => approveProposal(deps, input) },
    holds: {
      place: (input) => placeHold(deps, input),
      release: (reference) => requestHoldRelease(deps, reference),
      get: (reference) => changeHold(deps, reference, (hold) => hold),
    },
    workers: {
      verifyCancellations: (runOptions) => inFlight.track(verifyCancellations(deps, runOptions)),
      pollConfirmations: (runOptions) => inFlight.track(pollConfirmations(deps, runOptions)),
      keepHolds: (runOptions) => inFlight.track(keepHolds(deps, runOptions)),
      purgeExpired: () =>
        inFlight.track(
          store.purgeExpired({
            now: deps.clock.now(),
            retentionMs: settings.limits.idempotencyRetentionMs,
            retention: settings.retention,
          }),
        ),
      expireAuthorizations: (runOptions) => inFlight.track(expireAuthorizations(deps, runOptions)),
      attach(loop) {
        loops.push(loop);
        // A loop attached after close() began stops at once, like the others did.
        if (stopping.signal.aborted) void loop.close();
        return loop;
      },
    },
    webhooks: createWebhookOperations(deps, options.webhookDelivery, instrumentation, (work) =>
      inFlight.track(work),
    ),
  };
}
