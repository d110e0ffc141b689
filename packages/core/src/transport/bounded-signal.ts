// A signal with its own bound: ended by its timer or by its parent's signal (one attempt, one worker run, one partner's sync).

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
  const call = parent ?? new AbortController().signal;
  const controller = new AbortController();
  let expired = false;
  const onCallAbort = () => controller.abort(call.reason);
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
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
