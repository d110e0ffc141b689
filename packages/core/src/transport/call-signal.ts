// The signal of one call: the caller's abort and the overall deadline end it; an attempt timeout only its attempt.

export interface CallSignalOptions {
  /** The caller's signal, if any. */
  caller: AbortSignal | undefined;
  deadlineMs: number;
  /** The reason the call ends with when the caller aborts (the typed abort error). */
  abortReason: () => unknown;
  /** The reason the call ends with when the deadline passes (the typed deadline error). */
  deadlineReason: () => unknown;
}

export interface CallSignal {
  /**
   * Aborted once the caller aborts or the deadline passes, with the matching reason. Every wait and the
   * attempt in flight listen to it; read it again after `abortAttempt`, which replaces it.
   */
  readonly current: AbortSignal;
  /** Aborts the attempt in flight (its fetch follows `current`), then gives the call a fresh signal. */
  abortAttempt(reason: unknown): void;
  /** Stops listening to the caller and clears the deadline timer; call it when the call settles. */
  dispose(): void;
}

/**
 * One controller, one deadline timer and one listener on the caller's signal per call. An attempt timeout
 * aborts the same controller, so the fetch in flight needs no signal of its own (a controller and two
 * listeners per attempt cost more than the rest of the transport), and is followed by a new controller
 * unless the call itself has ended.
 */
export function createCallSignal(options: CallSignalOptions): CallSignal {
  const { caller } = options;
  let controller = new AbortController();
  let ended = false;
  const end = (reason: unknown) => {
    ended = true;
    controller.abort(reason);
  };
  const onCallerAbort = () => end(options.abortReason());
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  const deadline = setTimeout(() => end(options.deadlineReason()), options.deadlineMs);

  return {
    get current() {
      return controller.signal;
    },
    abortAttempt(reason) {
      if (ended) return;
      controller.abort(reason);
      controller = new AbortController();
    },
    dispose() {
      clearTimeout(deadline);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}
