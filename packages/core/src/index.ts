// Public entry point of @fin/core: what SDK users call (money, identifiers, schemas, errors, redact, Clock, Logger,
// webhook verification, the endpoint registry). What the @fin packages share beneath has its own entry point:
// `@fin/core/schemas` (every schema and type by name), `@fin/core/errors` (the catalog's tables and the builders of
// an error's details), `@fin/core/webhooks` (signing, headers, secrets), `@fin/core/transport`, `@fin/core/openapi` (build only).
export { type Clock, systemClock } from './clock/index.js';
export {
  catalogEntry,
  type ErrorCode,
  type ErrorDetail,
  errorCatalog,
  errorCodes,
  errorDocsUrl,
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
  isKnownErrorCode,
} from './errors/index.js';
export * as cep from './identifiers/cep.js';
export * as cnpj from './identifiers/cnpj.js';
export * as cpf from './identifiers/cpf.js';
export * as imei from './identifiers/imei.js';
export * as nfeKey from './identifiers/nfe-key.js';
export type { LogEntry, Logger, LogLevel } from './logger/index.js';
export * as endpoints from './namespaces/endpoints.js';
export * as money from './namespaces/money.js';
export * as schemas from './namespaces/schemas.js';
export { maskSecretValues, type Redacted, redact, redactText } from './redact/index.js';
// The types of the resources users name, by name (`export type *` would also list every zod schema as a type-only
// name, failing as a value: TS1362); the schemas are values of `schemas`; envelopes, pages, OAuth and wire-only
// shapes are `@fin/core/schemas`.
export type {
  Address,
  AuthorizationState,
  AuthorizationStatus,
  AuthorizeRequest,
  CancelReason,
  CancelRequest,
  CancelResult,
  CartItem,
  CartService,
  CartTotals,
  ConfirmRequest,
  ConfirmResult,
  Employee,
  ImeiValidation,
  Installment,
  Money,
  Plan,
  Product,
  ProductWithStock,
  ProposalReuse,
  ReservationExtendRequest,
  ReservationRequest,
  ReservationState,
  SaleSearchRequest,
  SaleSearchResult,
  SaleStatus,
  SaleStatusValue,
  Scope,
  SellerRole,
  Service,
  ServiceType,
  StockLevel,
  StockReservation,
  Store,
} from './schemas/index.js';
export { MAX_SALE_AMOUNT_CENTS } from './schemas/primitives.js';
// Receiving webhooks: verification and the event types; signing, headers and secrets are `@fin/core/webhooks`.
export {
  type AuthorizationExpiredEvent,
  type CancellationContradictedEvent,
  type CancellationVerifiedEvent,
  type ContractCreatedEvent,
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
} from './webhooks/index.js';
