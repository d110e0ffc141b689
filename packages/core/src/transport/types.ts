// Public shapes of the transport: client options, one request, its result, the events a client tells, its TLS.
import type * as z from 'zod';
import type { Clock } from '../clock/index.js';
import type { RateClass } from '../endpoints/endpoint.js';
import type { Logger } from '../logger/index.js';
import type { Scope } from '../schemas/index.js';

/** @deprecated The rate class's earlier name: `RateClass`, the registry's `rate` (each has its own pacer). */
export type RequestKind = RateClass;

export interface BackoffOptions {
  /** First backoff ceiling; doubles on each retry. Default 300 ms. */
  baseMs?: number;
  /** Highest backoff ceiling. Default 10 000 ms. */
  maxMs?: number;
  /** Highest `Retry-After` honoured; a longer one fails the call with its `retryAfterMs`. Default 30 000 ms. */
  maxRetryAfterMs?: number;
}

/** PEM text or its bytes. */
export type Pem = string | Uint8Array;

/** The client certificate a client presents (mutual TLS, spec section 5), and the CA it trusts. */
export interface ClientTlsOptions {
  /** The client certificate (PEM), with its chain if any. */
  cert: Pem;
  /** Its private key (PEM). Never logged, never in an error. */
  key: Pem;
  /** CA certificate(s) the server's certificate must chain to; default Node's trusted roots. */
  ca?: Pem | readonly Pem[];
  /** Passphrase of an encrypted `key`. */
  passphrase?: string;
}

/**
 * Whether mutual TLS is mandatory: `'optional'` (the default, sandboxes and the demo) or `'required'`
 * (production under spec v2.0). The same values on both clients and on `createFinancingService`.
 */
export type MutualTls = 'optional' | 'required';

/**
 * One attempt as it leaves. Only identifiers and the route template: never the path's ids, the query, a
 * header, the body, a token, a CPF or an IMEI.
 */
export interface RequestEvent {
  method: string;
  /** The registry's path template (`/v1/authorizations/{id}/confirm`), or the fixed token path. */
  route: string;
  /** Rate class of the call: `read`, `write` or `token`. */
  rate: RateClass;
  /** X-Request-Id of this attempt. */
  requestId: string;
  correlationId: string;
  /** 1 for the first attempt; a retry or a token replay counts up. */
  attempt: number;
}

/** One attempt as it ended: answered (`status`) or not (`error`, the failure's code), after `elapsedMs`. */
export interface ResponseEvent extends RequestEvent {
  /** HTTP status of the answer; undefined when none came (connection lost, timeout, abort). */
  status: number | undefined;
  /** Milliseconds from the request leaving to the whole answer read (or the failure), by the client's clock. */
  elapsedMs: number;
  /** Code of the failure without an answer (`connection_failed`, `timeout` ...), else undefined. */
  error: string | undefined;
}

export interface ClientEvents {
  request: RequestEvent;
  response: ResponseEvent;
}

export type ClientEventName = keyof ClientEvents;
export type ClientEventListener<E extends ClientEventName> = (event: ClientEvents[E]) => void;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | undefined;

/**
 * Requests per minute per client_id; `false` turns pacing off (a server under load test, say). A burst up
 * to the whole allowance leaves at once; no 60 s window ever holds more.
 */
export interface RateLimitOptions {
  token?: number;
  read?: number;
  write?: number;
}

/** The POS vendor's application, named in the `User-Agent` after the SDK: `MyPOS/2.1.0 (+https://pos.example)`. */
export interface AppInfo {
  /** A product token: letters, digits and `!#$%&'*+-.^_\`|~`, no spaces or slashes. */
  name: string;
  version?: string;
  url?: string;
}

/** What the SDK package calling the transport is, for its `User-Agent`. */
export interface SdkInfo {
  /** The npm package name, `@fin/authorization-client`. */
  name: string;
  version: string;
}

export interface HttpClientOptions {
  /** Host root, e.g. `https://api.example.com` (paths carry `/v1`). */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Scopes of the system token when a request names none. Only the scopes in use should be asked. */
  scopes?: readonly Scope[];
  /** Path of the token endpoint; default `/v1/oauth/token`. */
  tokenPath?: string;
  /** A `fetch` to use instead of the global one (msw, undici, a test double). */
  fetch?: typeof fetch;
  /**
   * Mutual TLS: the client certificate and key this client presents (and the CA of the server), on every
   * call and the token requests. One connection pool for the client's life; TLS below 1.2 is refused.
   */
  tls?: ClientTlsOptions;
  /**
   * `'required'` (production under spec v2.0, docs/mtls.md): the client refuses to start without `tls`,
   * a FinInputError naming `tls`. Default `'optional'`.
   */
  mutualTls?: MutualTls;
  /**
   * Lets a plain `http://` `baseUrl` reach a host that is neither loopback nor a reserved test name
   * (`.test`, `.localhost`, `.invalid`, `.example`); refused otherwise. Logs one warning per client.
   */
  allowInsecureHttp?: boolean;
  /** Time allowed to one attempt, headers and the whole body; default 10 000 ms. */
  timeoutMs?: number;
  /** Time allowed to the whole call, retries and waits included; default 60 000 ms. */
  deadlineMs?: number;
  /**
   * Largest response body read, in bytes; default 4 MiB (`DEFAULT_MAX_RESPONSE_BYTES`). A longer body fails
   * the call with a FinResponseTooLargeError and the rest of it is never read (the connection is released).
   */
  maxResponseBytes?: number;
  /** Retries after the first attempt; default 2; `0` sends exactly one request. */
  maxRetries?: number;
  backoff?: BackoffOptions;
  /** Per-minute limits; default the spec's (token 60, read 600, write 120). */
  rateLimit?: RateLimitOptions | false;
  /** Receives `http.*` events already passed through `redact`; silent by default. */
  logger?: Logger;
  /** Clock of the token cache, the pacers and the deadline; default the system clock. */
  clock?: Clock;
  /** Jitter source in [0, 1); default `Math.random`. */
  random?: () => number;
  /** Your application, named in the `User-Agent` after the SDK and Node versions. */
  appInfo?: AppInfo;
  /**
   * Headers sent on every request (a proxy's, a tenant's). `Authorization`, `Idempotency-Key`,
   * `X-Request-Id`, `X-Correlation-Id` and `User-Agent` are the SDK's own: naming one is refused.
   */
  defaultHeaders?: Record<string, string>;
}

/** What a caller may set on one call, beside the request itself. */
export interface CallOptions {
  /** X-Correlation-Id of the sale journey; a new one per call when absent. */
  correlationId?: string;
  /** Aborts the call, including a backoff or pacing wait. */
  signal?: AbortSignal;
  /** Time allowed to each attempt of this call, instead of the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Retries of this call after its first attempt, instead of the client's `maxRetries`. */
  maxRetries?: number;
  /**
   * Headers of this call only, over the client's `defaultHeaders`. The SDK's own (`Authorization`,
   * `Idempotency-Key`, `X-Request-Id`, `X-Correlation-Id`, `User-Agent`) are refused before sending, as there.
   */
  headers?: Record<string, string>;
}

export interface RequestOptions<S extends z.ZodType> extends CallOptions {
  method: HttpMethod;
  /** Path from the host root, with its `/v1` prefix: `/v1/sales/authorize`. */
  path: string;
  /** The registry's path template (`/v1/authorizations/{id}/confirm`): names the call's span and metrics. */
  route?: string;
  /** Query string; `undefined` values are left out. Never put personal data here beyond the spec's. */
  query?: Record<string, QueryValue>;
  /** JSON body. */
  body?: unknown;
  /** Form-encoded body (the token endpoint). */
  form?: Record<string, string | undefined>;
  /** Rate class (`read`, `write`, `token`): picks the pacer, the retry rule and whether a bearer is sent. */
  rate: RateClass;
  /** Scopes of the token this call needs; default the client's `scopes`. One token per distinct set. */
  scopes?: readonly Scope[];
  /** Idempotency-Key of a write, a uuid v4 (else refused before sending); one is made per call when absent. */
  idempotencyKey?: string;
  /** Schema of the envelope's `data` (of the whole body for `rate: 'token'`). */
  schema: S;
}

export interface ResponseMeta {
  status: number;
  /** X-Request-Id this client sent for the attempt that answered (the one its logs carry). */
  requestId: string;
  /** The server's own request id, when it answered with one other than `requestId` (it did not echo ours). */
  serverRequestId: string | undefined;
  /** X-Request-Id of every attempt of the call, first to last (the last one answered). */
  requestIds: string[];
  correlationId: string;
  /** The Idempotency-Key sent, for writes. */
  idempotencyKey: string | undefined;
  /** `X-Processing-Time-Ms` of the response, for monitoring. */
  processingTimeMs: number | undefined;
  /** Envelope `message`, fit for the seller ('' for the token endpoint). */
  message: string;
  /** Attempts made, 1 when the first one answered. */
  attempts: number;
  /** Response headers, lower-case names (never a cookie). */
  headers: Record<string, string>;
  /**
   * The fetch `Response` that answered (status, every header; its body already read), not enumerable.
   * Undefined only where no response carried the result.
   */
  readonly response?: Response;
}

/** A result with the metadata of the answer that carried it, as a non-enumerable `lastResponse`. */
export type WithResponse<T> = T & { readonly lastResponse: ResponseMeta };

/**
 * The result of a write: beside `lastResponse`, the Idempotency-Key it was sent with and every attempt's
 * X-Request-Id, also non-enumerable (so `JSON.stringify` and equality see only the API's data).
 */
export type WriteResult<T> = WithResponse<T> & {
  readonly idempotencyKey: string;
  readonly requestIds: readonly string[];
};

export interface HttpResult<T> {
  data: T;
  meta: ResponseMeta;
}

export interface HttpClient {
  /** Sends one call: pacing, token, headers, retries and decoding included. */
  request<S extends z.ZodType>(options: RequestOptions<S>): Promise<HttpResult<z.output<S>>>;
  /** Adds a listener told of every attempt (token requests included): `request` as it leaves, `response` as it ends. */
  on<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): void;
  /** Removes a listener added with `on`. */
  off<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): void;
}
