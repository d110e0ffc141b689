// One answer: read within the attempt's bounds (time, bytes), decoded into data or a typed error, its metadata kept on the result.
import type * as z from 'zod';
import {
  type ErrorCode,
  FinApiError,
  FinResponseParseError,
  FinResponseValidationError,
  isKnownErrorCode,
  type ResponseIssue,
} from '../errors/index.js';
import {
  type ErrorObject,
  errorEnvelope,
  successEnvelope,
  type TokenErrorResponse,
  tokenErrorResponse,
} from '../schemas/index.js';
import { parseRetryAfter } from './retry.js';
import type { ResponseMeta, WithResponse, WriteResult } from './types.js';

export interface BoundedSignal {
  /** Aborted when its time is up or the parent aborts; a plain controller's signal, never a composite. */
  readonly signal: AbortSignal;
  /** Whether its own timer ended it (not the parent). */
  timedOut(): boolean;
  /** Clears the timer and stops listening to the parent; call it once the bounded work settles. */
  dispose(): void;
}

/**
 * One controller, held by its timer and by the parent's listener, so no garbage collection can drop it while
 * the work runs (a composite `AbortSignal.any` can be collected on Node 20, and with it the only link between
 * a deadline and the socket). The transport bounds each attempt with it, headers and whole body; the workers
 * bound each run and each partner's sync.
 */
export function createBoundedSignal(parent: AbortSignal | undefined, timeoutMs: number): BoundedSignal {
  const controller = new AbortController();
  let expired = false;
  const onCallAbort = () => controller.abort(parent?.reason);
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  if (parent?.aborted) onCallAbort();
  else parent?.addEventListener('abort', onCallAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onCallAbort);
    },
  };
}

/** The body outgrew its limit; the stream was cancelled, so the socket is released. */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

const utf8 = new TextDecoder();

/** The chunks as one UTF-8 text, decoded once. */
function decodeChunks(chunks: Uint8Array[], total: number): string {
  if (chunks.length === 1) return utf8.decode(chunks[0]);
  const whole = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return utf8.decode(whole);
}

/** The body's time ran out (`readBody` given a number of milliseconds); the stream was cancelled. */
export class BodyTimedOut extends Error {
  override readonly name = 'BodyTimedOut';
}

/**
 * The whole body, decoded as UTF-8, bounded in bytes and in time (decision TR-4). The bytes are counted as
 * they arrive, whatever `Content-Length` says (a compressed body's says nothing of its decoded size, and a
 * peer may lie); a `Content-Length` over `maxBytes` is refused before reading. `within` is a signal, or the
 * milliseconds left (then BodyTimedOut when they run out); either way the reader is cancelled when it ends:
 * its pending read ends at once and the fetch implementation drops the connection. Over `maxBytes`, the
 * stream is cancelled and BodyTooLarge thrown.
 */
export async function readBody(
  response: Response,
  maxBytes: number,
  within: AbortSignal | number,
): Promise<string> {
  const body = response.body;
  if (!body) return '';
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await body.cancel().catch(() => {});
    throw new BodyTooLarge();
  }
  const reader = body.getReader();
  let ended: { reason: unknown } | undefined;
  const end = (reason: unknown) => {
    ended ??= { reason };
    reader.cancel(reason).catch(() => {});
  };
  const signal = typeof within === 'number' ? undefined : within;
  const onAbort = () => end(signal?.reason);
  const timer = signal ? undefined : setTimeout(() => end(new BodyTimedOut()), within as number);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (ended) throw ended.reason;
      if (done) return decodeChunks(chunks, total);
      total += value.byteLength;
      if (total > maxBytes) throw new BodyTooLarge();
      chunks.push(value);
    }
  } catch (error) {
    // Cancelling tells the fetch implementation to drop the rest: the connection is not kept for a body nobody reads.
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Response headers never copied to results or errors. */
const HIDDEN_HEADERS = new Set(['set-cookie', 'authorization', 'proxy-authorization']);

/** What is known about one answered attempt; its visible headers are copied from the `Response` on first read. */
export class Answer {
  readonly status: number;
  /** `X-Processing-Time-Ms` of the response, when it is a number. */
  readonly processingTimeMs: number | undefined;
  /** The server's own `X-Request-Id` when it did not echo ours: it travels beside ours, in logs and results. */
  readonly serverRequestId: string | undefined;
  #headers: Record<string, string> | undefined;

  constructor(
    readonly endpoint: string,
    readonly correlationId: string,
    readonly requestId: string,
    /** The fetch `Response` (body read), kept for `withResponse()` and `error.response`. */
    readonly response: Response,
    readonly text: string,
    /** Clock time (ms) when the body was read. */
    readonly now: number,
  ) {
    // Read once here: every answered attempt's result, log line and span carry both.
    this.status = response.status;
    const processing = Number(response.headers.get('x-processing-time-ms') ?? Number.NaN);
    this.processingTimeMs = Number.isFinite(processing) ? processing : undefined;
    this.serverRequestId = serverRequestIdOf(requestId, response);
  }

  /** Lower-case names, never a cookie or a credential. */
  get headers(): Record<string, string> {
    if (!this.#headers) {
      const visible: Record<string, string> = {};
      this.response.headers.forEach((value, name) => {
        if (!HIDDEN_HEADERS.has(name)) visible[name] = value;
      });
      this.#headers = visible;
    }
    return this.#headers;
  }
}

export interface Decoded<T> {
  data: T;
  message: string;
}

/** RFC 6749 error values mapped to our catalog, for a token server that sends no `code` of its own. */
const oauthErrorCodes: Record<TokenErrorResponse['error'], ErrorCode> = {
  invalid_request: 'bad_request',
  invalid_client: 'invalid_client',
  invalid_grant: 'invalid_client',
  unauthorized_client: 'invalid_client',
  unsupported_grant_type: 'unsupported_grant_type',
  invalid_scope: 'invalid_scope',
  rate_limit_exceeded: 'rate_limit_exceeded',
  server_error: 'internal_error',
};

const toIssues = (error: z.ZodError): ResponseIssue[] =>
  error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));

function parseJson(answer: Answer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch (cause) {
    const { endpoint, status, requestId, correlationId } = answer;
    throw new FinResponseParseError({ endpoint, status, requestId, correlationId, cause });
  }
}

function invalid(answer: Answer, error: z.ZodError): FinResponseValidationError {
  const { endpoint, status, requestId, correlationId } = answer;
  return new FinResponseValidationError({
    endpoint,
    status,
    requestId,
    correlationId,
    issues: toIssues(error),
  });
}

/**
 * The server's id for the request when it differs from the one sent (from the body's `requestId`, else
 * the `X-Request-Id` header): a server that does not echo ours keeps its own beside it.
 */
function serverRequestIdOf(sent: string, response: Response, bodyRequestId?: string): string | undefined {
  const id = bodyRequestId || response.headers.get('x-request-id');
  return id && id !== sent ? id : undefined;
}

function apiError(answer: Answer, error: ErrorObject & { code: string }, requestId?: string): FinApiError {
  return new FinApiError({
    code: error.code,
    legacyCode: error.legacyCode,
    message: error.message,
    // A 2xx that still says `success: false` takes the catalog's status for the code.
    status: answer.status >= 400 ? answer.status : undefined,
    details: error.details,
    docsUrl: error.docsUrl,
    endpoint: answer.endpoint,
    // The id this client sent and logged; the server's differing one travels beside it.
    requestId: answer.requestId,
    serverRequestId: serverRequestIdOf(answer.requestId, answer.response, requestId),
    correlationId: answer.headers['x-correlation-id'] ?? answer.correlationId,
    retryAfterMs: parseRetryAfter(answer.headers['retry-after'], answer.now),
    headers: answer.headers,
  });
}

const isFailure = (answer: Answer, body: unknown): boolean =>
  answer.status >= 400 ||
  (typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false);

/**
 * An envelope answer: `data` checked against `schema`, or the error it carries as a FinApiError.
 * `envelope` is `successEnvelope(schema)`, built once by the caller: zod compiles each new object schema
 * on its first parse, which costs a hundred times the parse itself.
 */
export function decodeEnvelope<S extends z.ZodType>(
  answer: Answer,
  schema: S,
  // Widened to a plain ZodType so the generic payload does not defeat inference of the envelope.
  envelope: z.ZodType = successEnvelope(schema as z.ZodType),
): Decoded<z.output<S>> {
  const body = parseJson(answer);
  if (isFailure(answer, body)) {
    const parsed = errorEnvelope.safeParse(body);
    if (!parsed.success) throw invalid(answer, parsed.error);
    throw apiError(answer, parsed.data.error, parsed.data.requestId);
  }
  const parsed = envelope.safeParse(body);
  if (!parsed.success) throw invalid(answer, parsed.error);
  const checked = parsed.data as { data: unknown; message: string };
  return { data: checked.data as z.output<S>, message: checked.message };
}

/** A token endpoint answer: the plain JSON body, or its RFC 6749 error as a FinApiError of our catalog. */
export function decodeToken<S extends z.ZodType>(answer: Answer, schema: S): Decoded<z.output<S>> {
  const body = parseJson(answer);
  if (answer.status < 400) {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw invalid(answer, parsed.error);
    return { data: parsed.data as z.output<S>, message: '' };
  }
  const oauth = tokenErrorResponse.safeParse(body);
  if (oauth.success) {
    const { code, error, legacyCode, message, error_description, requestId } = oauth.data;
    const catalogCode = code !== undefined && isKnownErrorCode(code) ? code : oauthErrorCodes[error];
    throw apiError(
      answer,
      { code: catalogCode, legacyCode, message: message || error_description || '' },
      requestId,
    );
  }
  // A gateway in front of the token endpoint may still answer with our plain error envelope.
  const envelope = errorEnvelope.safeParse(body);
  if (envelope.success) throw apiError(answer, envelope.data.error, envelope.data.requestId);
  throw invalid(answer, oauth.error);
}

/**
 * `data` with `meta` as its non-enumerable `lastResponse`: request id, processing time, headers and
 * attempts for a support ticket, while `JSON.stringify`, spreads and equality still see only the data.
 */
export function withResponse<T extends object>(data: T, meta: ResponseMeta): WithResponse<T> {
  return Object.defineProperty(data, 'lastResponse', { value: meta }) as WithResponse<T>;
}

/** A write's result: `lastResponse`, plus its `idempotencyKey` and `requestIds`, all non-enumerable. */
export function withWriteReceipt<T extends object>(data: T, meta: ResponseMeta): WriteResult<T> {
  Object.defineProperty(data, 'idempotencyKey', { value: meta.idempotencyKey });
  Object.defineProperty(data, 'requestIds', { value: meta.requestIds });
  return withResponse(data, meta) as WriteResult<T>;
}

/** What `withResponse()` gives: the parsed result and the fetch `Response` that carried it (body already read). */
export interface DataAndResponse<T> {
  data: T;
  response: Response;
}

/**
 * A client method's promise (openai-node style): await it for the data, or call `.withResponse()` for
 * `{ data, response }`. A failure rejects both alike; an answered one carries the same `Response` as
 * `error.response`.
 */
export type ApiPromise<T> = Promise<T> & { withResponse(): Promise<DataAndResponse<T>> };

/** `promise` (of a result carrying `lastResponse`) with `.withResponse()`. */
export function apiPromise<T extends { readonly lastResponse: ResponseMeta }>(
  promise: Promise<T>,
): ApiPromise<T> {
  const withRaw = () =>
    promise.then((data) => ({
      data,
      response: data.lastResponse.response ?? new Response(null, data.lastResponse),
    }));
  return Object.assign(promise, { withResponse: withRaw });
}
