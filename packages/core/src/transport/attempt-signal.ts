// The signal of one attempt: its own timer (headers and the whole body) and the call's signal end it.

export interface AttemptSignal {
  /** Aborted when the attempt's time is up or the call ends; given to fetch itself, never composed. */
  readonly signal: AbortSignal;
  /** Whether the attempt's own timer ended it (not the caller nor the deadline). */
  timedOut(): boolean;
  /** Clears the timer and stops listening to the call; call it once the body is read or the attempt failed. */
  dispose(): void;
}

/**
 * One controller per attempt, held by its timer and by the call signal's listener, so no garbage collection
 * can drop it while the attempt runs (a composite `AbortSignal.any` can be collected on Node 20, and with it
 * the only link between a deadline and the socket). The timer covers the wait for headers and the whole
 * body: a peer that sends headers and then stalls or drips is ended all the same.
 */
export function createAttemptSignal(call: AbortSignal, timeoutMs: number): AttemptSignal {
  const controller = new AbortController();
  let expired = false;
  const onCallAbort = () => controller.abort(call.reason);
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`attempt timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  if (call.aborted) onCallAbort();
  else call.addEventListener('abort', onCallAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    dispose() {
      clearTimeout(timer);
      call.removeEventListener('abort', onCallAbort);
    },
  };
}
