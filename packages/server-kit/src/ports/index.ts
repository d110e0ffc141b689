// The ports of @fin/server-kit: what the service needs from the world, each replaceable.
export type { LogEntry, Logger } from '@fin/core';
export { type Clock, systemClock } from '@fin/core';
export type { CreditAnalysisRequest, CreditDecision, CreditEngine } from './credit-engine.js';
// Stock holds (issue 30): the partner's reservation calls, what the service keeps of each hold, the store's part.
export * from './hold-record.js';
export type * from './hold-store.js';
export type { RateLimitDecision, RateLimiter, RateLimitHit } from './rate-limiter.js';
export * from './records.js';
export * from './retention.js';
export type { SaleSearch } from './sale-search.js';
export type * from './stock-holds.js';
export type * from './store.js';
export { isStoreUnavailable, StoreUnavailableError } from './store-unavailable.js';
export {
  type ClaimWebhookEvents,
  type NewWebhookEvent,
  type WebhookAttempt,
  type WebhookEventQuery,
  type WebhookEventRecord,
  type WebhookEventStatus,
  type WebhookEventStore,
  type WebhookReplay,
  webhookEventRecord,
  webhookEventStatus,
} from './webhook-events.js';
export type { WorkerLease } from './worker-lease.js';
