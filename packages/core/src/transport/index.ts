// @fin/core/transport: the shared HTTP transport of the @fin clients: token, headers, pacing, retries, envelope decoding.
//
// Usage (a resource layer such as @fin/pos-client or @fin/authorization-client):
//
//   const http = createHttpClient({ baseUrl, clientId, clientSecret, scopes: ['catalog:read'], fetch, logger });
//   const { data, meta } = await http.request({
//     method: 'GET', path: '/v1/plans', query: { storeId }, rate: 'read',
//     schema: schemas.plansData,               // schema of the envelope's `data`
//     correlationId, signal,                   // optional
//   });
//   // meta: { status, requestId, requestIds, correlationId, idempotencyKey, processingTimeMs, message, attempts, headers }
//   return withResponse(data.plans, meta);     // meta as the result's non-enumerable `lastResponse`
//
// - `rate` (the registry's rate class) picks the pacer ('read' 600/min, 'write' 120/min, 'token' 60/min; `rateLimit` overrides: a burst
//   up to the allowance leaves at once, no 60 s window holds more, a 429 Retry-After holds every caller) and,
//   for 'write', sends an Idempotency-Key: the caller's (a uuid v4, else a FinInputError before sending), or
//   one made per call and kept on every retry. Every error of a call carries `idempotencyKey` and `requestIds`.
// - Per call: `timeoutMs` and `maxRetries` override the client's. Per client: `defaultHeaders` (never the
//   SDK's own headers), and a `User-Agent` naming the SDK (`createHttpClient(options, sdk)`), Node and `appInfo`.
// - The system token (client_credentials, only `scopes`) is cached, renewed 60 s before it expires,
//   shared by concurrent callers; a 401 expired_token/invalid_token drops it and replays the call once.
// - Retries (default 2): network errors, attempt timeouts, 408, 429 and 5xx, after Retry-After or
//   full-jitter backoff; 4xx never. `signal` aborts the call and any wait; `deadlineMs` bounds it all.
// - Failures (from `@fin/core`), all `FinError`s with `code`, `endpoint`, `requestId` and `correlationId`:
//   FinApiError (the API answered an error envelope), FinConnectionError, FinTimeoutError, FinAbortError,
//   FinResponseParseError (not JSON), FinResponseValidationError (names the fields), FinRedirectError (a 3xx:
//   never followed), FinResponseTooLargeError (over `maxResponseBytes`). None carries a token, secret or body.
//
// - Telemetry: with @opentelemetry/api installed (an optional peer), a client span per call (`traceparent` sent,
//   attempts, retries and waits as events) and `http.client.request.duration`; `createInstrumentation` is the
//   same facade for the other @fin packages (docs/operations.md lists every span and metric).

export type { RateClass } from '../endpoints/endpoint.js';
export {
  createInstrumentation,
  type Instrumentation,
  type InstrumentSpec,
  type RecordMetric,
  type SpanHandle,
  type SpanStart,
  type TelemetryAttributes,
} from '../telemetry/index.js';
export {
  type ApiPromise,
  apiPromise,
  BodyTooLarge,
  type BoundedSignal,
  createBoundedSignal,
  type DataAndResponse,
  readBody,
  withResponse,
  withWriteReceipt,
} from './answer.js';
export {
  createHttpClient,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
} from './client.js';
export { HTTP_DURATION_BUCKETS } from './client-telemetry.js';
export {
  type Fetch,
  isMutualTls,
  MIN_TLS_VERSION,
  type TlsFetch,
  type TlsFetchOptions,
  tlsFetch,
} from './mutual-tls.js';
export {
  callerHeaders,
  checkBaseUrl,
  isIdempotencyKey,
  isLocalHost,
  newIdempotencyKey,
  RESERVED_HEADERS,
  userAgent,
} from './options.js';
export { createPacer, DEFAULT_RATE_LIMITS, type Pacer, type PacerOptions } from './pacing.js';
export { DEFAULT_BACKOFF, parseRetryAfter } from './retry.js';
export {
  createTokenManager,
  TOKEN_RENEW_MARGIN_MS,
  type TokenManager,
  type TokenManagerOptions,
} from './tokens.js';
export type {
  AppInfo,
  BackoffOptions,
  CallOptions,
  ClientEventListener,
  ClientEventName,
  ClientEvents,
  ClientTlsOptions,
  HttpClient,
  HttpClientOptions,
  HttpMethod,
  HttpResult,
  MutualTls,
  Pem,
  QueryValue,
  RateLimitOptions,
  RequestEvent,
  RequestKind,
  RequestOptions,
  ResponseEvent,
  ResponseMeta,
  SdkInfo,
  WithResponse,
  WriteResult,
} from './types.js';
