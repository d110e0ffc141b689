// Public entry point of @fin/authorization-client: authorize, confirm and cancel financed sales from a POS, receive its
// webhooks. Of @fin/core, what a POS names when it handles an answer or an event; the rest stays @fin/core's.

export {
  type AuthorizationExpiredEvent,
  type CancellationContradictedEvent,
  type CancellationVerifiedEvent,
  type ContractCreatedEvent,
  FinAbortError,
  FinApiError,
  FinConnectionError,
  FinError,
  FinInputError,
  FinTimeoutError,
  isFinApiError,
  isFinError,
  isFinInputError,
  isWebhookVerificationError,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookVerificationCode,
  WebhookVerificationError,
} from '@fin/core';
export {
  newIdempotencyKey,
  type RequestEvent,
  type ResponseEvent,
  type ResponseMeta,
} from '@fin/core/transport';
export { buildCart, type Cart, type CartInput, type CartLine } from './cart.js';
export {
  type AuthorizationApproved,
  AuthorizationClient,
  type AuthorizationClientOptions,
  type AuthorizationDeclined,
  type AuthorizeOutcome,
  type CallOptions,
  type CancelInput,
  type ConfirmInput,
  type Journey,
} from './client.js';
export { CLIENT_ID_PREFIXES, type Environment } from './environment.js';
export { isExpired } from './expiry.js';
export {
  createWebhookHandler,
  MAX_WEBHOOK_BODY_BYTES,
  type WebhookAnswer,
  type WebhookHandlerOptions,
} from './webhooks/index.js';
