// Public entry point of @fin/authorization-client: authorize, confirm and cancel financed sales from a POS.

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
  FinRedirectError,
  FinResponseParseError,
  FinResponseTooLargeError,
  FinResponseValidationError,
  FinTimeoutError,
  isFinApiError,
  isFinError,
  isFinInputError,
  isWebhookVerificationError,
  type KnownWebhookEvent,
  type UnknownWebhookEvent,
  type VerifyWebhookOptions,
  verifyWebhook,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeadersInput,
  type WebhookRawBody,
  type WebhookVerificationCode,
  WebhookVerificationError,
} from '@fin/core';
export {
  type ApiPromise,
  type AppInfo,
  type ClientEventListener,
  type ClientEventName,
  type ClientEvents,
  type DataAndResponse,
  isIdempotencyKey,
  newIdempotencyKey,
  type RequestEvent,
  type ResponseEvent,
  type ResponseMeta,
  type WithResponse,
  type WriteResult,
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
