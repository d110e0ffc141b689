// Sends one request through ky and reads its whole answer, bounded in time (headers and body) and in bytes.

import { recordResponse } from '../errors/fin-error.js';
import {
  FinConnectionError,
  FinRedirectError,
  FinResponseTooLargeError,
  FinTimeoutError,
} from '../errors/index.js';
import { createBoundedSignal } from './bounded-signal.js';
import type { CallContext } from './call-context.js';
import { BodyTooLarge, readBody } from './read-body.js';
import type { Transport } from './transport.js';

/** One answered attempt before decoding: status, body text, the headers a result may show, the `Response`. */
export interface FetchedAnswer {
  status: number;
  text: string;
  headers: Record<string, string>;
  /** The fetch `Response` itself, its body read: what `withResponse()` and `error.response` give. */
  response: Response;
}

/** Response headers never copied to results or errors. */
const HIDDEN_HEADERS = new Set(['set-cookie', 'authorization', 'proxy-authorization']);

function visibleHeaders(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!HIDDEN_HEADERS.has(name)) out[name] = value;
  });
  return out;
}

/**
 * The attempt's headers: the client's (`defaultHeaders`, `User-Agent`), the call's (checked when it opened),
 * then ours.
 */
function attemptHeaders(transport: Transport, context: CallContext, requestId: string, token?: string) {
  const headers: Record<string, string> = { ...transport.headers, ...context.headers };
  headers.accept = 'application/json';
  headers['x-request-id'] = requestId;
  headers['x-correlation-id'] = context.correlationId;
  if (token) headers.authorization = `Bearer ${token}`;
  if (context.idempotencyKey) headers['idempotency-key'] = context.idempotencyKey;
  if (context.call.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  else if (context.call.body !== undefined) headers['content-type'] = 'application/json';
  context.span.inject(headers);
  return headers;
}

/** The form body of the token endpoint, `undefined` values left out. */
function formBody(form: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) if (value !== undefined) params.set(name, value);
  return params.toString();
}

/** The attempt's body as text: the form, the JSON, or none. */
function bodyText(call: CallContext['call']): string | undefined {
  if (call.form) return formBody(call.form);
  return call.body === undefined ? undefined : JSON.stringify(call.body);
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

/** The answer's status and body; a redirect or an oversized body is refused here, its body left unread. */
async function readAnswer(
  transport: Transport,
  context: CallContext,
  response: Response,
  ids: { endpoint: string; correlationId: string; requestId: string },
  signal: AbortSignal,
): Promise<FetchedAnswer> {
  const { status } = response;
  if (status >= 300 && status < 400) {
    await response.body?.cancel().catch(() => {});
    const location = locationOrigin(
      response.headers.get('location'),
      `${transport.baseUrl}${context.call.path}`,
    );
    throw recordResponse(new FinRedirectError({ ...ids, status, location }), response);
  }
  try {
    const text = await readBody(response, transport.maxResponseBytes, signal);
    return { status, text, headers: visibleHeaders(response), response };
  } catch (cause) {
    if (cause instanceof BodyTooLarge) {
      const limit = transport.maxResponseBytes;
      throw recordResponse(new FinResponseTooLargeError({ ...ids, limit, unit: 'bytes' }), response);
    }
    throw cause;
  }
}

/**
 * Sends the request and reads the whole answer; a failure without an answer becomes the typed error. The
 * fetch gets the attempt's own signal (not ky's composite), no redirect is followed (the body, the client
 * secret or a CPF would be re-sent to wherever `Location` points), and the attempt's timer runs until the
 * last byte of the body. The body text reaches fetch beside ky's request, not inside it: ky would turn it
 * into a stream and tee it for retries it never makes (this transport retries itself), a sixth of the
 * calling process's CPU per call. The headers go beside it too, checked once by fetch's own `Request`: ky
 * would merge, check and copy them four more times.
 */
export async function fetchAnswer(
  transport: Transport,
  context: CallContext,
  requestId: string,
  token?: string,
): Promise<FetchedAnswer> {
  const { call } = context;
  const attempt = createBoundedSignal(context.signal, context.timeoutMs);
  const ids = { endpoint: context.endpoint, correlationId: context.correlationId, requestId };
  const body = bodyText(call);
  const headers = attemptHeaders(transport, context, requestId, token);
  try {
    const response = await transport.ky(`${transport.baseUrl}${call.path}`, {
      method: call.method,
      searchParams: call.query,
      fetch: (input, init) =>
        transport.fetch(input, { ...init, headers, body, signal: attempt.signal, redirect: 'manual' }),
    });
    return await readAnswer(transport, context, response, ids, attempt.signal);
  } catch (cause) {
    if (context.signal.aborted) throw context.signal.reason;
    if (cause instanceof FinRedirectError || cause instanceof FinResponseTooLargeError) throw cause;
    // No cause kept for a timeout: ky's errors hold its Request, whose headers carry the bearer token.
    if (attempt.timedOut())
      throw new FinTimeoutError({ ...ids, scope: 'attempt', timeoutMs: context.timeoutMs });
    throw new FinConnectionError({ ...ids, cause });
  } finally {
    attempt.dispose();
  }
}
