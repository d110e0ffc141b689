// createHttpClient: ky with its own retry off, p-retry around it, token, headers, pacing and decoding.
import ky, { TimeoutError } from 'ky';
import pRetry, { AbortError as StopRetrying } from 'p-retry';
import { v4 as uuidv4 } from 'uuid';
import type { z } from 'zod';
import { isFinApiError } from '../errors/index.js';
import { redact } from '../redact/index.js';
import { type Scope, successEnvelope, tokenResponse } from '../schemas/index.js';
import { attemptFetch } from './attempt-fetch.js';
import { createCallSignal } from './call-signal.js';
import { type Answer, decodeEnvelope, decodeToken } from './decode.js';
import { FinAbortError, FinConnectionError, FinTimeoutError } from './errors.js';
import type { LogEntry, LogLevel } from './logger.js';
import { createPacer, type Pacer } from './pacer.js';
import { DEFAULT_BACKOFF, isRetryable, retryDelayMs } from './retry-policy.js';
import { sleep } from './sleep.js';
import { createTokenManager, type TokenManager } from './token-manager.js';
import type { HttpClient, HttpClientOptions, HttpResult, RequestKind, RequestOptions } from './types.js';

/** The spec's limits per client_id (section 8), requests per minute. */
export const DEFAULT_RATE_LIMITS = { token: 60, read: 600, write: 120 } as const satisfies Record<
  RequestKind,
  number
>;

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_DEADLINE_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;

/** Response headers never copied to results or errors. */
const HIDDEN_HEADERS = new Set(['set-cookie', 'authorization', 'proxy-authorization']);

const TOKEN_REPLAY_CODES = new Set(['expired_token', 'invalid_token']);

function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!HIDDEN_HEADERS.has(name)) out[name] = value;
  });
  return out;
}

function queryOf(query: NonNullable<RequestOptions<z.ZodType>['query']>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params;
}

function formOf(form: Record<string, string | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    if (value !== undefined) params.set(name, value);
  }
  return params;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const tokenPath = options.tokenPath ?? '/v1/oauth/token';
  const http = ky.create({
    retry: 0,
    throwHttpErrors: false,
    timeout: timeoutMs,
  });

  // One success envelope per payload schema for this client: building it on every answer made zod
  // compile a new parser each time (~0.2-0.4 ms a call, the largest cost of the client; see bench/).
  const envelopes = new WeakMap<z.ZodType, z.ZodType>();
  const envelopeOf = (schema: z.ZodType) => {
    let envelope = envelopes.get(schema);
    if (!envelope) {
      envelope = successEnvelope(schema);
      envelopes.set(schema, envelope);
    }
    return envelope;
  };

  const pacers: Partial<Record<RequestKind, Pacer>> = {};
  const { rateLimit } = options;
  if (rateLimit !== false) {
    for (const kind of Object.keys(DEFAULT_RATE_LIMITS) as RequestKind[]) {
      pacers[kind] = createPacer({
        limit: rateLimit?.[kind] ?? DEFAULT_RATE_LIMITS[kind],
        burst: rateLimit?.burst,
        now,
      });
    }
  }

  const { logger } = options;
  const log = (level: LogLevel, entry: LogEntry) => {
    const write = logger?.[level];
    if (write) write.call(logger, redact(entry) as LogEntry);
  };

  // One token manager per distinct scope set, made on first use: only the scopes asked for.
  const tokenManagers = new Map<string, TokenManager>();
  const scopeOf = (scopes: readonly Scope[]) => [...new Set(scopes)].sort().join(' ');
  // Worked out once: most calls use the client's scopes.
  const defaultScope = scopeOf(options.scopes ?? []);
  const tokensFor = (scope: string): TokenManager => {
    let manager = tokenManagers.get(scope);
    if (!manager) {
      manager = createTokenManager({
        now,
        fetchToken: async () => {
          const { data } = await request({
            method: 'POST',
            path: tokenPath,
            kind: 'token',
            form: {
              grant_type: 'client_credentials',
              client_id: options.clientId,
              client_secret: options.clientSecret,
              scope: scope || undefined,
            },
            schema: tokenResponse,
          });
          return data;
        },
      });
      tokenManagers.set(scope, manager);
    }
    return manager;
  };

  async function request<S extends z.ZodType>(call: RequestOptions<S>): Promise<HttpResult<z.output<S>>> {
    const endpoint = `${call.method} ${call.path}`;
    const correlationId = call.correlationId ?? uuidv4();
    const idempotencyKey = call.kind === 'write' ? (call.idempotencyKey ?? uuidv4()) : call.idempotencyKey;
    const tokens =
      call.kind === 'token' ? undefined : tokensFor(call.scopes ? scopeOf(call.scopes) : defaultScope);
    const ids = { endpoint, correlationId };
    // Lower-cased so that the transport's own headers replace, never join, a caller's spelling of them.
    const callerHeaders = Object.fromEntries(
      Object.entries(call.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );

    // The call's own signal: the caller's abort and the overall deadline, each as its typed error.
    const callSignal = createCallSignal({
      caller: call.signal,
      deadlineMs,
      abortReason: () => new FinAbortError({ ...ids, cause: call.signal?.reason }),
      deadlineReason: () => new FinTimeoutError({ ...ids, scope: 'deadline', timeoutMs: deadlineMs }),
    });
    const deadlineAt = now() + deadlineMs;

    let attempts = 0;
    let tokenReplayed = false;

    const send = async (token: string | undefined): Promise<HttpResult<z.output<S>>> => {
      attempts += 1;
      const attempt = attempts;
      const requestId = uuidv4();
      const headers: Record<string, string> = {
        ...callerHeaders,
        accept: 'application/json',
        'x-request-id': requestId,
        'x-correlation-id': correlationId,
      };
      if (token) headers.authorization = `Bearer ${token}`;
      if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
      let body: string | URLSearchParams | undefined;
      if (call.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = formOf(call.form);
      } else if (call.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(call.body);
      }

      await pacers[call.kind]?.acquire(callSignal.current);
      // Entries are built only for a logger: a silent client (the default) pays nothing per call.
      if (logger)
        log('debug', {
          event: 'http.request',
          method: call.method,
          path: call.path,
          kind: call.kind,
          attempt,
          requestId,
          correlationId,
        });
      const startedAt = now();
      let answer: Answer;
      const signal = callSignal.current;
      try {
        // ky builds the Request (method and URL) and times the attempt; `sender` sends headers and body.
        const response = await http(`${baseUrl}${call.path}`, {
          method: call.method,
          ...(call.query ? { searchParams: queryOf(call.query) } : {}),
          fetch: attemptFetch({ fetch: options.fetch, headers, body, signal }),
        });
        const text = await response.text();
        answer = {
          endpoint,
          status: response.status,
          text,
          headers: headersOf(response),
          requestId,
          correlationId,
          now: now(),
        };
      } catch (cause) {
        if (signal.aborted) throw signal.reason;
        const timedOut = cause instanceof TimeoutError;
        const failure = timedOut
          ? new FinTimeoutError({ ...ids, requestId, scope: 'attempt', timeoutMs, cause })
          : new FinConnectionError({ ...ids, requestId, cause });
        // ky gave up waiting; the fetch itself is still running until its signal aborts.
        if (timedOut) callSignal.abortAttempt(failure);
        log('warn', {
          event: 'http.failure',
          method: call.method,
          path: call.path,
          attempt,
          requestId,
          error: failure.name,
          durationMs: now() - startedAt,
        });
        throw failure;
      }

      const processing = Number(answer.headers['x-processing-time-ms']);
      const processingTimeMs = Number.isFinite(processing) ? processing : undefined;
      if (logger)
        log(answer.status >= 400 ? 'warn' : 'debug', {
          event: 'http.response',
          method: call.method,
          path: call.path,
          status: answer.status,
          attempt,
          requestId,
          correlationId,
          durationMs: now() - startedAt,
          processingTimeMs,
        });
      const decoded =
        call.kind === 'token'
          ? decodeToken(answer, call.schema)
          : decodeEnvelope(answer, call.schema, envelopeOf(call.schema));
      return {
        data: decoded.data,
        meta: {
          status: answer.status,
          requestId: answer.headers['x-request-id'] ?? requestId,
          correlationId,
          idempotencyKey,
          processingTimeMs,
          message: decoded.message,
          attempts,
          headers: answer.headers,
        },
      };
    };

    const attemptOnce = async (): Promise<HttpResult<z.output<S>>> => {
      if (!tokens) return send(undefined);
      let token: string;
      try {
        token = await tokens.getToken(callSignal.current);
      } catch (error) {
        // The token call already retried what it may; retrying it again here would multiply attempts.
        throw new StopRetrying(error instanceof Error ? error : new Error(String(error)));
      }
      try {
        return await send(token);
      } catch (error) {
        // A token the server no longer accepts: drop it and replay the call once with a fresh one.
        if (
          tokenReplayed ||
          !isFinApiError(error) ||
          error.status !== 401 ||
          !TOKEN_REPLAY_CODES.has(error.code)
        ) {
          throw error;
        }
        tokenReplayed = true;
        tokens.invalidate(token);
        log('info', {
          event: 'http.token_replay',
          method: call.method,
          path: call.path,
          code: error.code,
          correlationId,
        });
        return attemptOnce();
      }
    };

    const retryCall = { write: call.kind === 'write', idempotencyKey };
    try {
      try {
        return await attemptOnce();
      } catch (failure) {
        // p-retry decides every retry, the first included: it starts from the failure already met, so
        // a call whose first attempt succeeds (nearly all) skips its per-call setup.
        return await pRetry((attempt) => (attempt === 1 ? Promise.reject(failure) : attemptOnce()), {
          retries: maxRetries,
          // The wait is ours (Retry-After or full jitter, abortable), taken in shouldRetry; p-retry adds none.
          minTimeout: 0,
          shouldRetry: async ({ error, retriesConsumed }) => {
            if (callSignal.current.aborted || !isRetryable(error, retryCall)) return false;
            const retryAfterMs = isFinApiError(error) ? error.retryAfterMs : undefined;
            if (retryAfterMs !== undefined && retryAfterMs > backoff.maxRetryAfterMs) return false;
            const delayMs = retryDelayMs(retriesConsumed + 1, retryAfterMs, backoff, random);
            if (now() + delayMs >= deadlineAt) return false;
            log('info', {
              event: 'http.retry',
              method: call.method,
              path: call.path,
              attempt: attempts,
              delayMs,
              error: error.name,
              correlationId,
            });
            await sleep(delayMs, callSignal.current);
            return true;
          },
        });
      }
    } finally {
      callSignal.dispose();
    }
  }

  return { request };
}
