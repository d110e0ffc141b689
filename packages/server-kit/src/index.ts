// Public entry point of @fin/server-kit: the service as a Web-standard fetch, adapters, stores, ports, workers; rules at ./rules.

export { type SandboxCreditEngineOptions, sandboxCreditEngine } from './credit/sandbox-credit-engine.js';
export { type SandboxOutcome, sandboxTaxIds } from './credit/sandbox-tax-ids.js';
export type { ClientRegistration } from './deps/clients.js';
export type { TrustedProxy } from './deps/proxy-trust.js';
export { defaultLimits, type ServiceLimits } from './deps/service-deps.js';
export type { WorkerRunOptions } from './deps/stop-signal.js';
export type { WebhookSubscription } from './deps/webhook-subscription.js';
export type { HoldReference } from './holds/change-hold.js';
export type { HoldPlacement, PlaceHoldInput } from './holds/place-hold.js';
export { answerClientErrors } from './http/client-errors.js';
export { fromRequest, toResponse } from './http/fetch-adapter.js';
export { type NodeHandler, type PlainHandler, toNodeHandler } from './http/node-adapter.js';
export type { BodyRead, PlainRequest, PlainResponse } from './http/plain.js';
export { memoryStore } from './memory/memory-store.js';
export {
  type AuthorizationRecord,
  authorizationRecord,
  type CancellationRecord,
  type CatalogSnapshotRecord,
  type ClaimWebhookEvents,
  type Clock,
  type ContractRecord,
  type CreateAuthorization,
  type CreateAuthorizationResult,
  type CreditAnalysisRequest,
  type CreditDecision,
  type CreditEngine,
  cancellationRecord,
  contractRecord,
  defaultRetention,
  type HoldRecord,
  type HoldRef,
  type HoldReleaseReason,
  type HoldStore,
  holdRecord,
  holdReleaseReason,
  type IdempotencyKeyRef,
  isStoreUnavailable,
  type JsonValue,
  type KeyAnswer,
  type LogEntry,
  type Logger,
  type NewWebhookEvent,
  type ProposalRecord,
  type PurgeInput,
  type PurgeReport,
  proposalRecord,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitHit,
  type RetentionOptions,
  type RetentionPolicy,
  retentionPolicy,
  type SaleSearch,
  type StockHoldOutcome,
  type StockHolds,
  type Store,
  type StoredResponse,
  type StoreStockHolds,
  StoreUnavailableError,
  systemClock,
  type TokenRecord,
  tokenRecord,
  type UpdateAuthorization,
  type UpdateAuthorizationResult,
  type UpdateHoldResult,
  type WebhookAttempt,
  type WebhookEventQuery,
  type WebhookEventRecord,
  type WebhookEventStatus,
  type WebhookEventStore,
  type WebhookReplay,
  type WorkerLease,
  type WriteClaim,
  type WriteClaimResult,
  webhookEventRecord,
  webhookEventStatus,
} from './ports/index.js';
// The configuration `createFinancingService` takes (`rules.r11`, `rules.clockSkewMs`) and its defaults; the
// rule functions themselves are `@fin/server-kit/rules`.
export { DEFAULT_CLOCK_SKEW_MS } from './rules/r06-time-window.js';
export { defaultProposalReusePolicy, type ProposalReusePolicy } from './rules/r11-reuse.js';
export {
  createFinancingService,
  type FinancingService,
  type FinancingServiceOptions,
} from './service/create-financing-service.js';
export type { HealthReport } from './service/health.js';
export type { HealthPaths } from './service/probes.js';
export { defaultReadiness, type ReadinessOptions } from './service/readiness.js';
export type { ApprovedProposal, ApproveProposalInput } from './use-cases/approve-proposal.js';
// Contract-status webhooks (spec v1.1, issue 26): the sender's schedule, subscriptions and operations.
export type { DeliverDueOptions, WebhookDeliverySummary } from './webhooks/deliver-due.js';
export {
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MAX_RETRY_AFTER_MS,
  WEBHOOK_RETRY_JITTER,
  WEBHOOK_RETRY_SCHEDULE_MS,
} from './webhooks/retry-schedule.js';
export type {
  ReplayWebhooksInput,
  WebhookDeliveryOptions,
  WebhookOperations,
} from './webhooks/webhook-service.js';
export { EXPIRY_LOOKBACK_MS, type ExpirySummary } from './workers/authorization-expiry.js';
export type { VerificationSummary } from './workers/cancellation-verifier.js';
export {
  type CatalogSyncJob,
  type CatalogSyncOptions,
  type CatalogSyncPartner,
  type CatalogSyncResult,
  catalogSyncJob,
  DEFAULT_PARTNER_SYNC_TIMEOUT_MS,
  type Departure,
  type PartnerCatalog,
} from './workers/catalog-sync.js';
export { type ConfirmationPollSummary, confirmationFromSale } from './workers/confirmation-poller.js';
export type { HoldKeeperSummary } from './workers/hold-keeper.js';
export {
  DEFAULT_WORKER_RUN_TIMEOUT_MS,
  startWorkerLoop,
  type WorkerLoop,
  type WorkerLoopOptions,
} from './workers/worker-loop.js';
