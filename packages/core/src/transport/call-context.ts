// One call in flight: its identifiers, its signal and deadline, and what its attempts have done so far.
import { v4 as uuidv4 } from 'uuid';
import type { z } from 'zod';
import type { Clock } from '../clock/index.js';
import { FinAbortError, FinInputError, FinTimeoutError } from '../errors/index.js';
import { noopSpan, type SpanHandle } from '../telemetry/index.js';
import { type CallSignal, createCallSignal } from './call-signal.js';
import { callerHeaders } from './client-headers.js';
import { checkIdempotencyKey } from './idempotency-key.js';
import type { RequestOptions } from './types.js';

export interface CallContext {
  readonly call: RequestOptions<z.ZodType>;
  /** `METHOD /path`, never the query. */
  readonly endpoint: string;
  readonly correlationId: string;
  /** The caller's key, or one made for a write and kept on every retry. */
  readonly idempotencyKey: string | undefined;
  /** Time allowed to each attempt: the call's override, else the client's. */
  readonly timeoutMs: number;
  /** Retries after the first attempt: the call's override, else the client's. */
  readonly maxRetries: number;
  /** The call's own `headers`, names lower-cased (the SDK's refused when the call opened). */
  readonly headers: Readonly<Record<string, string>>;
  /** X-Request-Id of every attempt sent so far, in order. */
  readonly requestIds: string[];
  /** Aborted by the caller or the deadline, with the typed error as its reason. */
  readonly signal: AbortSignal;
  /** Clock time (ms) after which no retry starts; set when the first attempt leaves. */
  deadlineAt: number;
  /** Attempts sent so far, token replay included. */
  attempts: number;
  /** Whether the one token replay of this call has been used. */
  tokenReplayed: boolean;
  /** The call's client span (a no-op until tracing starts it): attempts, retries and waits are its events. */
  span: SpanHandle;
  /**
   * Starts the deadline when the first attempt is about to leave: the wait for a first pacing slot
   * (at most a window, or a 429's hold) is the client's own queue, bounded by the caller's signal.
   */
  startDeadline(): void;
}

/** What a call takes from its client (the Transport): the defaults a call may override, its deadline, the clock. */
export interface CallDefaults {
  readonly timeoutMs: number;
  readonly deadlineMs: number;
  readonly maxRetries: number;
  readonly clock: Clock;
}

/** An option or per-call override: absent, or an integer from `min` up; else refused before sending. */
export function override(value: number | undefined, field: string, min: number): number | undefined {
  if (value === undefined || (Number.isSafeInteger(value) && value >= min)) return value;
  throw new FinInputError({
    code: 'validation_error',
    details: [{ field, issue: `must be an integer of at least ${min}` }],
  });
}

/**
 * Opens a call: its identifiers and its signal; `close` releases the signal once the call settles. Bad
 * overrides, an SDK header in `headers` or an Idempotency-Key that is not a uuid v4 throw here, before
 * anything is sent.
 */
export function openCall(
  transport: CallDefaults,
  call: RequestOptions<z.ZodType>,
): { context: CallContext; close: () => void } {
  const timeoutMs = override(call.timeoutMs, 'timeoutMs', 1) ?? transport.timeoutMs;
  const maxRetries = override(call.maxRetries, 'maxRetries', 0) ?? transport.maxRetries;
  const callerKey = checkIdempotencyKey(call.idempotencyKey);
  const headers = callerHeaders(call.headers, 'headers');
  const endpoint = `${call.method} ${call.path}`;
  const correlationId = call.correlationId ?? uuidv4();
  const ids = { endpoint, correlationId };
  const { deadlineMs } = transport;
  const callSignal: CallSignal = createCallSignal({
    caller: call.signal,
    deadlineMs,
    abortReason: () => new FinAbortError({ ...ids, cause: call.signal?.reason }),
    deadlineReason: () => new FinTimeoutError({ ...ids, scope: 'deadline', timeoutMs: deadlineMs }),
  });
  const context: CallContext = {
    call,
    endpoint,
    correlationId,
    idempotencyKey: call.rate === 'write' ? (callerKey ?? uuidv4()) : callerKey,
    timeoutMs,
    maxRetries,
    headers,
    requestIds: [],
    signal: callSignal.signal,
    deadlineAt: Number.POSITIVE_INFINITY,
    attempts: 0,
    tokenReplayed: false,
    span: noopSpan,
    startDeadline() {
      if (context.deadlineAt !== Number.POSITIVE_INFINITY) return;
      context.deadlineAt = transport.clock.now().getTime() + deadlineMs;
      callSignal.startDeadline();
    },
  };
  return { context, close: callSignal.dispose };
}
