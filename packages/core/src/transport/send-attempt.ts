// One attempt of a call: its pacing slot, the request (fetch-answer.ts), its log and span events, the decoded answer.
import { v4 as uuidv4 } from 'uuid';
import { recordResponse } from '../errors/fin-error.js';
import { isFinError } from '../errors/index.js';
import type { CallContext } from './call-context.js';
import type { RequestEvent } from './client-events.js';
import { type Answer, type Decoded, decodeEnvelope, decodeToken, serverRequestIdOf } from './decode.js';
import { type FetchedAnswer, fetchAnswer } from './fetch-answer.js';
import type { Transport } from './transport.js';
import type { HttpResult, ResponseMeta } from './types.js';

/** What the log lines and span events of one attempt share. */
interface AttemptEvent {
  method: string;
  path: string;
  attempt: number;
  requestId: string;
}

/** The code of a failure without an answer (a FinError's, else the error's name), for a `response` event. */
const failureCode = (failure: unknown): string =>
  isFinError(failure) ? failure.code : failure instanceof Error ? failure.name : 'unknown';

/** Waits for the call's pacing slot; a wait (the client's own limit, or a 429's hold) shows on the call's span. */
async function awaitSlot(transport: Transport, context: CallContext): Promise<void> {
  const { rate } = context.call;
  const queuedAt = transport.clock.now().getTime();
  const waited = await transport.pacers[rate]?.acquire(context.signal);
  if (waited) {
    const waitMs = transport.clock.now().getTime() - queuedAt;
    context.span.event('fin.pacing.wait', { 'fin.wait_ms': waitMs, 'fin.rate_class': rate });
  }
}

/** A failed attempt's warning and span event; a call ended by its caller or deadline is not worth one. */
function recordFailure(
  transport: Transport,
  context: CallContext,
  event: AttemptEvent,
  failure: unknown,
  durationMs: number,
): void {
  if (context.signal.aborted) return;
  const error = failure instanceof Error ? failure.name : String(failure);
  transport.log('warn', { event: 'http.failure', ...event, error, durationMs });
  context.span.event('http.attempt', {
    'http.request.header.x-request-id': [event.requestId],
    'fin.attempt': event.attempt,
    'error.type': (failure as { code?: string }).code ?? error,
  });
}

/** The answered attempt's log line, span event and rate-limit count; returns the server's own request id. */
function recordAnswer(
  transport: Transport,
  context: CallContext,
  event: AttemptEvent,
  answer: Answer,
  timing: { durationMs: number; processingTimeMs: number | undefined },
): string | undefined {
  // A server that does not echo our X-Request-Id: its own id travels beside ours, in logs and results.
  const serverRequestId = serverRequestIdOf(answer);
  const { status, correlationId } = answer;
  transport.log(status >= 400 ? 'warn' : 'debug', {
    event: 'http.response',
    ...event,
    serverRequestId,
    status,
    correlationId,
    ...timing,
  });
  context.span.event('http.attempt', {
    'http.request.header.x-request-id': [event.requestId],
    'fin.attempt': event.attempt,
    'http.response.status_code': status,
    'fin.server_request_id': serverRequestId,
  });
  if (status === 429) transport.telemetry.rateLimited(1, { 'fin.rate_class': context.call.rate });
  return serverRequestId;
}

/** Decodes the answer (token body or envelope) into the call's data and its metadata. */
function resultOf<T>(
  transport: Transport,
  context: CallContext,
  answer: Answer,
  extra: { serverRequestId: string | undefined; processingTimeMs: number | undefined },
): HttpResult<T> {
  const { call } = context;
  let decoded: Decoded<unknown>;
  try {
    decoded =
      call.rate === 'token'
        ? decodeToken(answer, call.schema)
        : decodeEnvelope(answer, call.schema, transport.envelopeOf(call.schema));
  } catch (error) {
    // The error envelope (or the unreadable body) keeps the Response that carried it, as a result does.
    throw isFinError(error) ? recordResponse(error, answer.response) : error;
  }
  const meta: ResponseMeta = {
    status: answer.status,
    requestId: answer.requestId,
    ...extra,
    requestIds: [...context.requestIds],
    correlationId: context.correlationId,
    idempotencyKey: context.idempotencyKey,
    message: decoded.message,
    attempts: context.attempts,
    headers: answer.headers,
  };
  Object.defineProperty(meta, 'response', { value: answer.response, enumerable: false });
  return { data: decoded.data as T, meta };
}

/** Sends one attempt of the call (after its pacer allows it) and decodes the answer. */
export async function sendAttempt<T>(
  transport: Transport,
  context: CallContext,
  token: string | undefined,
): Promise<HttpResult<T>> {
  const { call, correlationId } = context;
  const event: AttemptEvent = {
    method: call.method,
    path: call.path,
    attempt: ++context.attempts,
    requestId: uuidv4(),
  };
  await awaitSlot(transport, context);
  context.startDeadline();
  context.requestIds.push(event.requestId);
  transport.log('debug', { event: 'http.request', ...event, rate: call.rate, correlationId });
  const hook: RequestEvent = {
    method: call.method,
    route: call.route ?? call.path,
    rate: call.rate,
    requestId: event.requestId,
    correlationId,
    attempt: event.attempt,
  };
  transport.events.emit('request', hook);
  const startedAt = transport.clock.now().getTime();
  const elapsed = () => transport.clock.now().getTime() - startedAt;

  let fetched: FetchedAnswer;
  try {
    fetched = await fetchAnswer(transport, context, event.requestId, token);
  } catch (failure) {
    const elapsedMs = elapsed();
    recordFailure(transport, context, event, failure, elapsedMs);
    const answered = isFinError(failure) ? failure.response?.status : undefined;
    const error = answered === undefined ? failureCode(failure) : undefined;
    transport.events.emit('response', { ...hook, status: answered, elapsedMs, error });
    throw failure;
  }
  const processing = Number(fetched.headers['x-processing-time-ms']);
  const processingTimeMs = Number.isFinite(processing) ? processing : undefined;
  const now = transport.clock.now().getTime();
  const answer: Answer = {
    ...fetched,
    endpoint: context.endpoint,
    requestId: event.requestId,
    correlationId,
    now,
  };
  const durationMs = elapsed();
  const serverRequestId = recordAnswer(transport, context, event, answer, { durationMs, processingTimeMs });
  transport.events.emit('response', {
    ...hook,
    status: answer.status,
    elapsedMs: durationMs,
    error: undefined,
  });
  return resultOf<T>(transport, context, answer, { serverRequestId, processingTimeMs });
}
