// createHttpClient: one ky instance per client makes each request, p-retry runs a call's attempts, a refused token is replayed once.
import ky, { type Options, TimeoutError } from 'ky';
import pRetry, { AbortError } from 'p-retry';
import { v4 as uuidv4 } from 'uuid';
import type * as z from 'zod';
import { systemClock } from '../clock/index.js';
import { tokenPath } from '../endpoints/token.js';
import { recordCall, recordResponse } from '../errors/fin-error.js';
import {
  FinAbortError,
  FinConnectionError,
  FinRedirectError,
  FinResponseTooLargeError,
  FinTimeoutError,
  isFinApiError,
  isFinError,
} from '../errors/index.js';
import { type Scope, successEnvelope, tokenResponse } from '../schemas/index.js';
import { noopSpan, type SpanHandle } from '../telemetry/index.js';
import {
  Answer,
  BodyTimedOut,
  BodyTooLarge,
  createBoundedSignal,
  type Decoded,
  decodeEnvelope,
  decodeToken,
  readBody,
} from './answer.js';
import {
  createClientEvents,
  createTransportLog,
  createTransportTelemetry,
  traceCall,
} from './client-telemetry.js';
import { checkMutualTls, type Fetch, tlsFetch } from './mutual-tls.js';
import { callerHeaders, checkBaseUrl, checkIdempotencyKey, clientHeaders, override } from './options.js';
import { createPacers, holdAll, type Pacer } from './pacing.js';
import { DEFAULT_BACKOFF, isRetryable, retryDelayMs, sleep } from './retry.js';
import { createTokenSource, type TokenManager, type TokenSource } from './tokens.js';
import type {
  BackoffOptions,
  HttpClient,
  HttpClientOptions,
  HttpResult,
  RequestEvent,
  RequestOptions,
  ResponseMeta,
  SdkInfo,
} from './types.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_DEADLINE_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
/** Largest response body a client reads unless told otherwise: 4 MiB, a hundred times a full catalog page. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** What every call of one client shares: its settings with their defaults, its ky instance, pacers and instruments. */
type Client = ReturnType<typeof createClient>;

/** The attempt's headers for ky's `headers` option: its ids, the caller's, then its own (bearer, Idempotency-Key, `traceparent`). */
function attemptHeaders(context: CallContext, requestId: string, token: string | undefined) {
  // Ids first, not a spread-begun literal (TR-5): the caller's never name one (refused as the call opened).
  const headers: Record<string, string> = {
    'x-request-id': requestId,
    'x-correlation-id': context.correlationId,
    ...context.headers,
    accept: 'application/json',
  };
  if (token) headers.authorization = `Bearer ${token}`;
  if (context.idempotencyKey) headers['idempotency-key'] = context.idempotencyKey;
  context.span.inject(headers);
  return headers;
}

/**
 * The client's settings and shared state. Throws a FinInputError for a `defaultHeaders` naming a header of
 * the SDK, an `appInfo` that cannot travel in a header, a bad `maxResponseBytes`, a plain-HTTP `baseUrl` to
 * a remote host (without `allowInsecureHttp`), a `tls` without certificate or key, or a `mutualTls` unmet.
 */
function createClient(options: HttpClientOptions, sdk: SdkInfo | undefined) {
  const clock = options.clock ?? systemClock;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const log = createTransportLog(options.logger);
  checkBaseUrl(baseUrl, options.allowInsecureHttp, log);
  checkMutualTls(options);
  // The global fetch is read as each request leaves (msw and test doubles replace it after the client is made).
  const send: Fetch = options.tls
    ? tlsFetch(options.tls, options.fetch)
    : (options.fetch ?? ((input, init) => globalThis.fetch(input, init)));
  const envelopes = new WeakMap<z.ZodType, z.ZodType>();
  const scopeString = (scopes: readonly Scope[]) => [...new Set(scopes)].sort().join(' ');
  const defaultScope = scopeString(options.scopes ?? []);
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff } as Required<BackoffOptions>;
  const pacers = createPacers(options.rateLimit, clock);
  return {
    options,
    baseUrl,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    maxResponseBytes: override(options.maxResponseBytes, 'maxResponseBytes', 1) ?? DEFAULT_MAX_RESPONSE_BYTES,
    backoff,
    clock,
    random: options.random ?? Math.random,
    // Retries are p-retry's, the attempt's time bound the call's own, an HTTP error an answer, a redirect never followed.
    ky: ky.create({
      prefixUrl: baseUrl,
      fetch: send,
      headers: clientHeaders(options.defaultHeaders, sdk, options.appInfo),
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      redirect: 'manual',
    }),
    pacers,
    /**
     * p-retry's options that every call shares, each one it would default given (decision TR-5): its own delay
     * off (`shouldRetry` waits ours), and no time budget of its own (the call's deadline is the budget).
     */
    retryDefaults: {
      minTimeout: 0,
      maxTimeout: 0,
      factor: 1,
      randomize: false,
      maxRetryTime: Number.POSITIVE_INFINITY,
      shouldConsumeRetry: () => true,
    },
    /** p-retry's `onFailedAttempt`: a 429's hold, capped like the wait (a server asking for an hour must not freeze the client). */
    holdOnRateLimit: ({ error }: { error: Error }) => {
      if (isFinApiError(error) && error.status === 429 && error.retryAfterMs !== undefined) {
        const holdMs = Math.min(error.retryAfterMs, backoff.maxRetryAfterMs);
        holdAll(pacers, clock.now().getTime() + holdMs);
      }
    },
    log,
    /** Whether anything reads an attempt's log lines (a logger was given). */
    logs: options.logger !== undefined,
    events: createClientEvents(log),
    telemetry: createTransportTelemetry(baseUrl, sdk),
    /** The success envelope of a payload schema, built once per schema (zod compiles each new schema). */
    envelopeOf(schema: z.ZodType): z.ZodType {
      let envelope = envelopes.get(schema);
      if (!envelope) {
        envelope = successEnvelope(schema);
        envelopes.set(schema, envelope);
      }
      return envelope;
    },
    /** The scope string of a call's token: its own scopes, else the client's. */
    scopeOf: (scopes: readonly Scope[] | undefined) => (scopes ? scopeString(scopes) : defaultScope),
  };
}

/**
 * One call in flight: its identifiers, its signal and deadline, and what its attempts have done so far. Bad
 * overrides, an SDK header in `headers` or an Idempotency-Key that is not a uuid v4 throw as it opens, before
 * anything is sent. Its methods live on the class: a call allocates no closure unless a signal is needed.
 */
class CallContext {
  /** `METHOD /path`, never the query. */
  readonly endpoint: string;
  readonly correlationId: string;
  /** The caller's key, or one made for a write and kept on every retry. */
  readonly idempotencyKey: string | undefined;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  /** The call's own `headers`, names lower-cased (the SDK's refused when the call opened). */
  readonly headers: Readonly<Record<string, string>>;
  /** X-Request-Id of every attempt sent so far, in order. */
  readonly requestIds: string[] = [];
  /** Aborted by the caller or the deadline, with the typed error as its reason; made only when needed (TR-3). */
  signal: AbortSignal | undefined = undefined;
  /** Clock time (ms) after which no retry starts; set when the first attempt leaves. */
  deadlineAt = Number.POSITIVE_INFINITY;
  /** Attempts sent so far, token replay included. */
  attempts = 0;
  tokenReplayed = false;
  /** The call's client span (a no-op until tracing starts it): attempts, retries and waits are its events. */
  span: SpanHandle = noopSpan;
  #controller: AbortController | undefined;
  #deadline: ReturnType<typeof setTimeout> | undefined;
  #onCallerAbort: (() => void) | undefined;

  /** The call's token manager; none for the token endpoint's own calls. */
  readonly tokens: TokenManager | undefined;

  /** `tokensFor` is looked up only once the call is accepted: a refused call leaves no token manager behind. */
  constructor(
    private readonly client: Client,
    readonly call: RequestOptions<z.ZodType>,
    tokensFor: TokenSource,
  ) {
    this.timeoutMs = override(call.timeoutMs, 'timeoutMs', 1) ?? client.timeoutMs;
    this.maxRetries = override(call.maxRetries, 'maxRetries', 0) ?? client.maxRetries;
    const callerKey = checkIdempotencyKey(call.idempotencyKey);
    this.headers = callerHeaders(call.headers, 'headers');
    this.endpoint = `${call.method} ${call.path}`;
    this.correlationId = call.correlationId ?? uuidv4();
    this.idempotencyKey = call.rate === 'write' ? (callerKey ?? uuidv4()) : callerKey;
    this.tokens = call.rate === 'token' ? undefined : tokensFor(client.scopeOf(call.scopes));
    // Without the caller's signal, an attempt shorter than the deadline is bounded by its own time alone.
    if (call.signal || this.timeoutMs >= client.deadlineMs) this.callSignal();
  }

  /** Starts the deadline as the first attempt leaves: the wait for a first pacing slot is the client's own queue. */
  startDeadline(): void {
    if (this.deadlineAt !== Number.POSITIVE_INFINITY) return;
    this.deadlineAt = this.client.clock.now().getTime() + this.client.deadlineMs;
    if (this.#controller) this.#armDeadline(this.#controller);
  }

  /** The call's signal, made on first need: the caller's abort and the deadline end it, each with its typed error. */
  callSignal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = new AbortController();
    this.#controller = controller;
    this.signal = controller.signal;
    const caller = this.call.signal;
    if (caller) {
      const { endpoint, correlationId } = this;
      const onAbort = () =>
        controller.abort(new FinAbortError({ endpoint, correlationId, cause: caller.reason }));
      if (caller.aborted) onAbort();
      else caller.addEventListener('abort', onAbort, { once: true });
      this.#onCallerAbort = onAbort;
    }
    if (this.deadlineAt !== Number.POSITIVE_INFINITY) this.#armDeadline(controller);
    return controller.signal;
  }

  /** Releases the deadline's timer and the caller's listener once the call settles. */
  close(): void {
    clearTimeout(this.#deadline);
    if (this.#onCallerAbort) this.call.signal?.removeEventListener('abort', this.#onCallerAbort);
  }

  #armDeadline(ending: AbortController): void {
    const { endpoint, correlationId } = this;
    const timeoutMs = this.client.deadlineMs;
    const reason = { endpoint, correlationId, scope: 'deadline', timeoutMs } as const;
    const leftMs = Math.max(0, this.deadlineAt - this.client.clock.now().getTime());
    this.#deadline = setTimeout(() => ending.abort(new FinTimeoutError(reason)), leftMs);
  }
}

/** The origin a `Location` header points to, resolved against the request's URL; never its path or query. */
function locationOrigin(location: string | null, requestUrl: string): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location, requestUrl).origin;
  } catch {
    return undefined;
  }
}

/** The attempt's ky options: method, query, headers and body (the token endpoint's form, the JSON, or none). */
function requestOf(call: RequestOptions<z.ZodType>, headers: Record<string, string>): Options {
  const options: Options = { method: call.method, searchParams: call.query, headers };
  if (call.form) {
    const form = Object.entries(call.form).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    headers['content-type'] = 'application/x-www-form-urlencoded';
    options.body = new URLSearchParams(form).toString();
  } else if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    options.json = call.body;
  }
  return options;
}

/**
 * The answer, its visible headers copied from the `Response` on first read; a redirect (never followed) or an
 * oversized body is refused, its body left unread.
 */
async function readAnswer(
  client: Client,
  context: CallContext,
  response: Response,
  requestId: string,
  within: AbortSignal | number,
): Promise<Answer> {
  const { status } = response;
  const { endpoint, correlationId } = context;
  if (status >= 300 && status < 400) {
    await response.body?.cancel().catch(() => {});
    const location = locationOrigin(
      response.headers.get('location'),
      `${client.baseUrl}${context.call.path}`,
    );
    const redirect = new FinRedirectError({ endpoint, correlationId, requestId, status, location });
    throw recordResponse(redirect, response);
  }
  try {
    const text = await readBody(response, client.maxResponseBytes, within);
    return new Answer(endpoint, correlationId, requestId, response, text, client.clock.now().getTime());
  } catch (cause) {
    if (!(cause instanceof BodyTooLarge)) throw cause;
    const limit = client.maxResponseBytes;
    const tooLarge = new FinResponseTooLargeError({
      endpoint,
      correlationId,
      requestId,
      limit,
      unit: 'bytes',
    });
    throw recordResponse(tooLarge, response);
  }
}

/**
 * Sends the request through the client's ky instance and reads the whole answer within the attempt's bound,
 * headers and body (decision TR-3): with a call signal, one bounded signal handed to ky; without, ky's own
 * `timeout` until the headers, then the time left since `sentAt` over the body. A failure without an answer
 * becomes the typed error.
 */
async function fetchAnswer(
  client: Client,
  context: CallContext,
  requestId: string,
  token: string | undefined,
  sentAt: number,
): Promise<Answer> {
  const { call, timeoutMs } = context;
  const attempt = context.signal ? createBoundedSignal(context.signal, timeoutMs) : undefined;
  try {
    const options = requestOf(call, attemptHeaders(context, requestId, token));
    if (attempt) options.signal = attempt.signal;
    else options.timeout = timeoutMs;
    const response = await client.ky(call.path.replace(/^\/+/, ''), options);
    const within = attempt?.signal ?? Math.max(1, sentAt + timeoutMs - client.clock.now().getTime());
    return await readAnswer(client, context, response, requestId, within);
  } catch (cause) {
    if (context.signal?.aborted) throw context.signal.reason;
    if (cause instanceof FinRedirectError || cause instanceof FinResponseTooLargeError) throw cause;
    // No cause kept for a timeout: the fetch's errors may hold its Request, whose headers carry the bearer token.
    const { endpoint, correlationId } = context;
    if (cause instanceof TimeoutError || cause instanceof BodyTimedOut || attempt?.timedOut())
      throw new FinTimeoutError({ endpoint, correlationId, requestId, scope: 'attempt', timeoutMs });
    throw new FinConnectionError({ endpoint, correlationId, requestId, cause });
  } finally {
    attempt?.dispose();
  }
}

/** One attempt as its log lines, span events and `request`/`response` events name it. */
interface Attempt {
  readonly log: { method: string; path: string; attempt: number; requestId: string };
  readonly hook: RequestEvent;
}

/** The attempt's names, made only when a logger, a listener or a started span reads them (decision TR-3). */
function describeAttempt(client: Client, context: CallContext, requestId: string): Attempt | undefined {
  if (!client.logs && !client.events.listening() && context.span === noopSpan) return undefined;
  const { method, path, rate, route } = context.call;
  const { attempts: attempt, correlationId } = context;
  const hook: RequestEvent = { method, route: route ?? path, rate, requestId, correlationId, attempt };
  return { log: { method, path, attempt, requestId }, hook };
}

/** Waits for the call's pacing slot at its class's pacer; a wait (the client's own limit, or a 429's hold) shows on the call's span. */
async function awaitSlot(client: Client, context: CallContext, pacer: Pacer): Promise<void> {
  const { rate } = context.call;
  const queuedAt = client.clock.now().getTime();
  const waited = await pacer.acquire(context.signal);
  if (waited) {
    const waitMs = client.clock.now().getTime() - queuedAt;
    context.span.event('fin.pacing.wait', { 'fin.wait_ms': waitMs, 'fin.rate_class': rate });
  }
}

/** A failed attempt's warning, span event and `response` event; a call ended by its caller or deadline gets no warning. */
function recordFailure(
  client: Client,
  context: CallContext,
  { log: event, hook }: Attempt,
  failure: unknown,
  elapsedMs: number,
) {
  if (!context.signal?.aborted) {
    const error = failure instanceof Error ? failure.name : String(failure);
    client.log('warn', { event: 'http.failure', ...event, error, durationMs: elapsedMs });
    context.span.event('http.attempt', {
      'http.request.header.x-request-id': [event.requestId],
      'fin.attempt': event.attempt,
      'error.type': (failure as { code?: string }).code ?? error,
    });
  }
  const answered = isFinError(failure) ? failure.response?.status : undefined;
  const code = isFinError(failure) ? failure.code : failure instanceof Error ? failure.name : 'unknown';
  client.events.emit('response', {
    ...hook,
    status: answered,
    elapsedMs,
    error: answered === undefined ? code : undefined,
  });
}

/** The answered attempt's log line, span event and `response` event. */
function recordAnswer(
  client: Client,
  context: CallContext,
  { log: event, hook }: Attempt,
  answer: Answer,
  durationMs: number,
) {
  const { status, correlationId, serverRequestId, processingTimeMs } = answer;
  client.log(status >= 400 ? 'warn' : 'debug', {
    event: 'http.response',
    ...event,
    serverRequestId,
    status,
    correlationId,
    durationMs,
    processingTimeMs,
  });
  context.span.event('http.attempt', {
    'http.request.header.x-request-id': [event.requestId],
    'fin.attempt': event.attempt,
    'http.response.status_code': status,
    'fin.server_request_id': serverRequestId,
  });
  client.events.emit('response', { ...hook, status, elapsedMs: durationMs, error: undefined });
}

/** Decodes the answer (token body or envelope) into the call's data and its metadata. */
function resultOf<T>(client: Client, context: CallContext, answer: Answer): HttpResult<T> {
  const { call } = context;
  let decoded: Decoded<unknown>;
  try {
    decoded =
      call.rate === 'token'
        ? decodeToken(answer, call.schema)
        : decodeEnvelope(answer, call.schema, client.envelopeOf(call.schema));
  } catch (error) {
    // The error envelope (or the unreadable body) keeps the Response that carried it, as a result does.
    throw isFinError(error) ? recordResponse(error, answer.response) : error;
  }
  const meta: ResponseMeta = {
    status: answer.status,
    requestId: answer.requestId,
    serverRequestId: answer.serverRequestId,
    processingTimeMs: answer.processingTimeMs,
    requestIds: [...context.requestIds],
    correlationId: context.correlationId,
    idempotencyKey: context.idempotencyKey,
    message: decoded.message,
    attempts: context.attempts,
    get headers() {
      return answer.headers;
    },
  };
  Object.defineProperty(meta, 'response', { value: answer.response, enumerable: false });
  return { data: decoded.data as T, meta };
}

/** One attempt of the call: its pacing slot, the request, its log and events, the decoded answer. */
async function sendAttempt<T>(
  client: Client,
  context: CallContext,
  token: string | undefined,
): Promise<HttpResult<T>> {
  ++context.attempts;
  const requestId = uuidv4();
  // No await at all for a class the client does not pace (`rateLimit: false`): one promise less per attempt.
  const pacer = client.pacers[context.call.rate];
  if (pacer) await awaitSlot(client, context, pacer);
  context.startDeadline();
  context.requestIds.push(requestId);
  let seen = describeAttempt(client, context, requestId);
  if (seen) {
    const { rate } = context.call;
    client.log('debug', { event: 'http.request', ...seen.log, rate, correlationId: context.correlationId });
    client.events.emit('request', seen.hook);
  }
  const startedAt = client.clock.now().getTime();
  let answer: Answer;
  try {
    answer = await fetchAnswer(client, context, requestId, token, startedAt);
  } catch (failure) {
    seen ??= describeAttempt(client, context, requestId);
    if (seen) recordFailure(client, context, seen, failure, client.clock.now().getTime() - startedAt);
    throw failure;
  }
  if (answer.status === 429) client.telemetry.rateLimited(1, { 'fin.rate_class': context.call.rate });
  seen ??= describeAttempt(client, context, requestId);
  if (seen) recordAnswer(client, context, seen, answer, answer.now - startedAt);
  return resultOf<T>(client, context, answer);
}

const TOKEN_REPLAY_CODES = new Set(['expired_token', 'invalid_token']);

/** The token to send; a failure stops the retry loop, since the token call already retried what it may. */
async function bearer(tokens: TokenManager, context: CallContext): Promise<string> {
  try {
    return await tokens.getToken(context.signal);
  } catch (error) {
    throw new AbortError(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * One attempt, with the call's token when it needs one. When the server refuses that token (401
 * `expired_token` or `invalid_token`), drops it and sends again once with a fresh one; once per call, never more.
 */
async function attemptOf<T>(client: Client, context: CallContext): Promise<HttpResult<T>> {
  const { tokens } = context;
  if (!tokens) return sendAttempt<T>(client, context, undefined);
  const token = await bearer(tokens, context);
  try {
    return await sendAttempt<T>(client, context, token);
  } catch (error) {
    const refused = isFinApiError(error) && error.status === 401 && TOKEN_REPLAY_CODES.has(error.code);
    if (context.tokenReplayed || !refused) throw error;
    context.tokenReplayed = true;
    tokens.invalidate(token);
    const { method, path } = context.call;
    client.log('info', {
      event: 'http.token_replay',
      method,
      path,
      code: error.code,
      correlationId: context.correlationId,
    });
    context.span.event('fin.token.replay', { 'error.type': error.code });
    return sendAttempt<T>(client, context, await bearer(tokens, context));
  }
}

/**
 * The wait before a retry, or `undefined` when the failure must reach the caller: not retryable, a
 * `Retry-After` beyond the cap, or a wait that would end past the call's deadline.
 */
function retryWaitMs(client: Client, context: CallContext, error: Error, retry: number): number | undefined {
  if (context.signal?.aborted) return undefined;
  const write = context.call.rate === 'write';
  if (!isRetryable(error, { write, idempotencyKey: context.idempotencyKey })) return undefined;
  const retryAfterMs = isFinApiError(error) ? error.retryAfterMs : undefined;
  if (retryAfterMs !== undefined && retryAfterMs > client.backoff.maxRetryAfterMs) return undefined;
  const delayMs = retryDelayMs(retry, retryAfterMs, client.backoff, client.random);
  return client.clock.now().getTime() + delayMs >= context.deadlineAt ? undefined : delayMs;
}

/**
 * Runs the call: p-retry runs its attempts, at most `maxRetries` more, ended by the call's signal. Its own
 * delay is off and `shouldRetry` waits ours (`Retry-After`, else full jitter from the client's `random`),
 * decision TR-1. Whatever ends the call, an error carries the key to call again with and every attempt's id.
 */
async function runCall<T>(client: Client, context: CallContext): Promise<HttpResult<T>> {
  try {
    return await pRetry(() => attemptOf<T>(client, context), {
      retries: context.maxRetries,
      signal: context.signal,
      onFailedAttempt: client.holdOnRateLimit,
      shouldRetry: async ({ error, retriesConsumed }) => {
        const delayMs = retryWaitMs(client, context, error, retriesConsumed + 1);
        if (delayMs === undefined) return false;
        const { method, path } = context.call;
        const { attempts: attempt, correlationId } = context;
        client.log('info', {
          event: 'http.retry',
          method,
          path,
          attempt,
          delayMs,
          error: error.name,
          correlationId,
        });
        context.span.event('http.retry', {
          'fin.retry.delay_ms': delayMs,
          'fin.retry.after': isFinApiError(error) && error.retryAfterMs !== undefined,
          'error.type': isFinApiError(error) ? error.code : error.name,
        });
        await sleep(delayMs, context.callSignal());
        return true;
      },
      ...client.retryDefaults,
    });
  } catch (error) {
    if (isFinError(error)) recordCall(error, context);
    throw error;
  } finally {
    context.close();
  }
}

/**
 * The HTTP client of the @fin SDKs; `sdk` names the package built on it in the `User-Agent`. Throws a
 * FinInputError for options it refuses (see `createClient`).
 */
export function createHttpClient(options: HttpClientOptions, sdk?: SdkInfo): HttpClient {
  const client = createClient(options, sdk);
  const run = <T>(context: CallContext) => runCall<T>(client, context);

  async function request<S extends z.ZodType>(call: RequestOptions<S>): Promise<HttpResult<z.output<S>>> {
    const context = new CallContext(client, call, tokensFor);
    return traceCall(client.telemetry, client.baseUrl, context, run<z.output<S>>);
  }

  // The token endpoint is called through the same client: pacing (its own class), retries, decoding.
  const tokensFor = createTokenSource(client.clock, async (scope) => {
    const { data } = await request({
      method: 'POST',
      path: options.tokenPath ?? tokenPath,
      rate: 'token',
      form: {
        grant_type: 'client_credentials',
        client_id: options.clientId,
        client_secret: options.clientSecret,
        scope: scope || undefined,
      },
      schema: tokenResponse,
    });
    return data;
  });

  return { request, on: client.events.on, off: client.events.off };
}
