// startWorkerLoop(): runs a worker's runOnce() again and again in this process, never two runs at once, and stops gracefully.
import type { Logger } from '@fin/core';
import { createBoundedSignal } from '@fin/core/transport';

export interface WorkerLoopOptions {
  /** Pause between the end of one run and the start of the next. */
  intervalMs: number;
  /** Names the worker in log entries (`worker.failed`) and in `service.health()`. */
  name: string;
  /** A run that throws is logged here and the loop goes on. */
  logger?: Logger;
  /**
   * Time one run may take; default 30 minutes (`DEFAULT_WORKER_RUN_TIMEOUT_MS`). Past it the run's signal
   * aborts, so the worker stops before its next item, `worker.run_timed_out` is logged and the loop goes on.
   */
  runTimeoutMs?: number;
  /** Told of every run's result (metrics, tests). */
  onRun?(result: unknown): void;
}

/** How long one worker run may take unless told otherwise. */
export const DEFAULT_WORKER_RUN_TIMEOUT_MS = 30 * 60_000;

export interface WorkerLoop {
  readonly name: string;
  /** True from the start until `close()`: the loop runs or waits for its next run. */
  readonly running: boolean;
  /**
   * Stops scheduling runs, aborts the signal the run in progress was given (the service's workers stop
   * between items on it), and resolves once that run has returned.
   */
  close(): Promise<void>;
}

/**
 * The optional in-process schedule of a worker; a deployer with a scheduler (cron, a queue) calls the
 * worker's `runOnce()` instead. The first run starts at once. Timers are unref'd: an idle loop does not
 * keep the process alive, and `close()` is how a graceful shutdown waits for the current run.
 * `runOnce` gets an `AbortSignal` aborted by `close()` or when the run outlives `runTimeoutMs`: pass it on
 * (`verifyCancellations({ signal })`), so a run stuck on a partner never holds the loop.
 */
export function startWorkerLoop(
  runOnce: (signal: AbortSignal) => Promise<unknown>,
  options: WorkerLoopOptions,
): WorkerLoop {
  if (!Number.isSafeInteger(options.intervalMs) || options.intervalMs < 1) {
    throw new TypeError(`startWorkerLoop: intervalMs must be a positive integer, got ${options.intervalMs}`);
  }
  const stop = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> | undefined;

  const run = () => {
    timer = undefined;
    current = (async () => {
      const bound = createBoundedSignal(stop.signal, options.runTimeoutMs ?? DEFAULT_WORKER_RUN_TIMEOUT_MS);
      try {
        const result = await runOnce(bound.signal);
        if (bound.timedOut()) options.logger?.warn?.({ event: 'worker.run_timed_out', worker: options.name });
        options.onRun?.(result);
      } catch (error) {
        options.logger?.error?.({
          event: 'worker.failed',
          worker: options.name,
          error: error instanceof Error ? error.message : String(error),
        });
      } finally {
        bound.dispose();
        current = undefined;
        if (!stop.signal.aborted) schedule();
      }
    })();
  };
  const schedule = () => {
    timer = setTimeout(run, options.intervalMs);
    timer.unref?.();
  };

  run();
  return {
    name: options.name,
    get running() {
      return !stop.signal.aborted;
    },
    async close() {
      stop.abort();
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
