// One call in flight: its identifiers, its signal and deadline, and what its attempts have done so far.
import { v4 as uuidv4 } from 'uuid';
import type { z } from 'zod';
import { FinAbortError, FinTimeoutError } from '../errors/index.js';
import { type CallSignal, createCallSignal } from './call-signal.js';
import type { Transport } from './transport.js';
import type { RequestOptions } from './types.js';

export interface CallContext {
  readonly call: RequestOptions<z.ZodType>;
  /** `METHOD /path`, never the query. */
  readonly endpoint: string;
  readonly correlationId: string;
  /** The caller's key, or one made for a write and kept on every retry. */
  readonly idempotencyKey: string | undefined;
  /** Aborted by the caller or the deadline, with the typed error as its reason. */
  readonly signal: AbortSignal;
  /** Clock time (ms) after which no retry starts; set when the first attempt leaves. */
  deadlineAt: number;
  /** Attempts sent so far, token replay included. */
  attempts: number;
  /** Whether the one token replay of this call has been used. */
  tokenReplayed: boolean;
  /**
   * Starts the deadline when the first attempt is about to leave: the wait for a first pacing slot
   * (at most a window, or a 429's hold) is the client's own queue, bounded by the caller's signal.
   */
  startDeadline(): void;
}

/** Opens a call: its identifiers and its signal; `close` releases the signal once the call settles. */
export function openCall(
  transport: Transport,
  call: RequestOptions<z.ZodType>,
): { context: CallContext; close: () => void } {
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
    idempotencyKey: call.kind === 'write' ? (call.idempotencyKey ?? uuidv4()) : call.idempotencyKey,
    signal: callSignal.signal,
    deadlineAt: Number.POSITIVE_INFINITY,
    attempts: 0,
    tokenReplayed: false,
    startDeadline() {
      if (context.deadlineAt !== Number.POSITIVE_INFINITY) return;
      context.deadlineAt = transport.clock.now().getTime() + deadlineMs;
      callSignal.startDeadline();
    },
  };
  return { context, close: callSignal.dispose };
}
