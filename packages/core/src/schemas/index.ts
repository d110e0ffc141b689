// Every zod schema of the contract; types are inferred from them, never written twice.

// The webhook events' schemas (spec v1.1): values of `schemas` like every other schema; their types stay at the root.
export {
  authorizationExpiredData,
  authorizationExpiredEvent,
  cancellationContradictedData,
  cancellationContradictedEvent,
  cancellationVerifiedData,
  cancellationVerifiedEvent,
  contractCreatedData,
  contractCreatedEvent,
  contractSource,
  knownWebhookEvent,
  webhookEnvelope,
} from '../webhooks/events.js';
export * from './envelope.js';
export * from './oauth.js';
export * from './partner-pos.js';
export * from './primitives.js';
export * from './sales-authorization.js';
export { isStorableText, unstorableField } from './storable-text.js';
