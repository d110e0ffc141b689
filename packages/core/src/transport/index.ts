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
//   return withResponse(data.plans, meta);     // meta as the result's non-enumerable `lastResponse`
//
// `rate` picks the pacer (spec section 8) and, for 'write', an Idempotency-Key kept on every retry; the system
// token is cached per scope set and replayed once after a 401 expired_token/invalid_token; retries (default 2)
// follow Retry-After or full jitter; every failure is a typed FinError carrying no token, secret or body.
// docs/operations.md lists the spans and metrics (with @opentelemetry/api installed, an optional peer).

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
  BodyTimedOut,
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
