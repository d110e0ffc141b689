// The signal of one call: the caller's abort and the overall deadline end it, each with its typed error.

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
  /** Aborted once the caller aborts or the deadline passes; every attempt and wait listens to it. */
  readonly signal: AbortSignal;
  /** Starts the deadline timer; later calls do nothing. */
  startDeadline(): void;
  /** Stops listening to the caller and clears the deadline timer; call it when the call settles. */
  dispose(): void;
}

/** One controller per call, aborted by the caller's signal or the deadline timer, whichever comes first. */
export function createCallSignal(options: CallSignalOptions): CallSignal {
  const { caller } = options;
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(options.abortReason());
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  let deadline: ReturnType<typeof setTimeout> | undefined;

  return {
    signal: controller.signal,
    startDeadline() {
      deadline ??= setTimeout(() => controller.abort(options.deadlineReason()), options.deadlineMs);
    },
    dispose() {
      clearTimeout(deadline);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}
