// One attempt of a call: headers, pacing, one request through ky, and the answer decoded into a result or an error.
import { TimeoutError } from 'ky';
import { v4 as uuidv4 } from 'uuid';
import { FinConnectionError, FinTimeoutError } from '../errors/index.js';
import type { CallContext } from './call-context.js';
import { RESERVED_HEADERS } from './client-headers.js';
import { type Answer, decodeEnvelope, decodeToken, serverRequestIdOf } from './decode.js';
import type { Transport } from './transport.js';
import type { HttpResult } from './types.js';

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
 * The attempt's headers: the client's (`defaultHeaders`, `User-Agent`), the call's (lower-cased, the SDK's
 * own names left out), then ours.
 */
function attemptHeaders(transport: Transport, context: CallContext, requestId: string, token?: string) {
  const headers: Record<string, string> = { ...transport.headers };
  for (const [name, value] of Object.entries(context.call.headers ?? {})) {
    const lower = name.toLowerCase();
    if (!RESERVED_HEADERS.has(lower)) headers[lower] = value;
  }
  headers.accept = 'application/json';
  headers['x-request-id'] = requestId;
  headers['x-correlation-id'] = context.correlationId;
  if (token) headers.authorization = `Bearer ${token}`;
  if (context.idempotencyKey) headers['idempotency-key'] = context.idempotencyKey;
  if (context.call.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  context.span.inject(headers);
  return headers;
}

/** The form body of the token endpoint, `undefined` values left out. */
function formBody(form: Record<string, string | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) if (value !== undefined) params.set(name, value);
  return params;
}

/** Sends the request and reads the whole answer; a failure without an answer becomes the typed error. */
async function fetchAnswer(transport: Transport, context: CallContext, requestId: string, token?: string) {
  const { call, signal } = context;
  try {
    const response = await transport.ky(`${transport.baseUrl}${call.path}`, {
      method: call.method,
      headers: attemptHeaders(transport, context, requestId, token),
      timeout: context.timeoutMs,
      searchParams: call.query,
      json: call.form ? undefined : call.body,
      body: call.form ? formBody(call.form) : undefined,
      signal,
    });
    const text = await response.text();
    return { status: response.status, text, headers: visibleHeaders(response) };
  } catch (cause) {
    if (signal.aborted) throw signal.reason;
    const ids = { endpoint: context.endpoint, correlationId: context.correlationId, requestId };
    // ky's TimeoutError holds its Request, whose headers carry the bearer token: it is not kept as cause.
    if (cause instanceof TimeoutError) {
      throw new FinTimeoutError({ ...ids, scope: 'attempt', timeoutMs: context.timeoutMs });
    }
    throw new FinConnectionError({ ...ids, cause });
  }
}

/** Sends one attempt of the call (after its pacer allows it) and decodes the answer. */
export async function sendAttempt<T>(
  transport: Transport,
  context: CallContext,
  token: string | undefined,
): Promise<HttpResult<T>> {
  const { call, correlationId, idempotencyKey } = context;
  const attempt = ++context.attempts;
  const requestId = uuidv4();
  const event = { method: call.method, path: call.path, attempt, requestId };
  const queuedAt = transport.clock.now().getTime();
  const waited = await transport.pacers[call.kind]?.acquire(context.signal);
  // A wait for a pacing slot (the client's own limit, or a 429's hold) shows on the call's span.
  if (waited) {
    const waitMs = transport.clock.now().getTime() - queuedAt;
    context.span.event('fin.pacing.wait', { 'fin.wait_ms': waitMs, 'fin.rate_class': call.kind });
  }
  context.startDeadline();
  context.requestIds.push(requestId);
  transport.log('debug', { event: 'http.request', ...event, kind: call.kind, correlationId });
  const startedAt = transport.clock.now().getTime();
  const elapsed = () => transport.clock.now().getTime() - startedAt;

  let fetched: Awaited<ReturnType<typeof fetchAnswer>>;
  try {
    fetched = await fetchAnswer(transport, context, requestId, token);
  } catch (failure) {
    // A call ended by its caller or deadline is not an attempt failure worth a warning.
    if (!context.signal.aborted) {
      const error = failure instanceof Error ? failure.name : String(failure);
      transport.log('warn', { event: 'http.failure', ...event, error, durationMs: elapsed() });
      context.span.event('http.attempt', {
        'http.request.header.x-request-id': [requestId],
        'fin.attempt': attempt,
        'error.type': (failure as { code?: string }).code ?? error,
      });
    }
    throw failure;
  }
  const processing = Number(fetched.headers['x-processing-time-ms']);
  const processingTimeMs = Number.isFinite(processing) ? processing : undefined;
  const answer: Answer = {
    ...fetched,
    endpoint: context.endpoint,
    requestId,
    correlationId,
    now: transport.clock.now().getTime(),
  };
  // A server that does not echo our X-Request-Id: its own id travels beside ours, in logs and results.
  const serverRequestId = serverRequestIdOf(answer);
  transport.log(fetched.status >= 400 ? 'warn' : 'debug', {
    event: 'http.response',
    ...event,
    serverRequestId,
    status: fetched.status,
    correlationId,
    durationMs: elapsed(),
    processingTimeMs,
  });

  context.span.event('http.attempt', {
    'http.request.header.x-request-id': [requestId],
    'fin.attempt': attempt,
    'http.response.status_code': fetched.status,
    'fin.server_request_id': serverRequestId,
  });
  if (fetched.status === 429) transport.telemetry.rateLimited(1, { 'fin.rate_class': call.kind });

  const decoded =
    call.kind === 'token'
      ? decodeToken(answer, call.schema)
      : decodeEnvelope(answer, call.schema, transport.envelopeOf(call.schema));
  const meta = {
    status: answer.status,
    requestId,
    serverRequestId,
    requestIds: [...context.requestIds],
    correlationId,
    idempotencyKey,
    processingTimeMs,
    message: decoded.message,
    attempts: context.attempts,
    headers: answer.headers,
  };
  return { data: decoded.data as T, meta };
}
