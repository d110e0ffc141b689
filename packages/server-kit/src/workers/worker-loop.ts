// startWorkerLoop(): runs a worker's runOnce() again and again in this process, never two runs at once, and stops gracefully.
import type { Logger } from '@fin/core';

export interface WorkerLoopOptions {
  /** Pause between the end of one run and the start of the next. */
  intervalMs: number;
  /** Names the worker in log entries (`worker.failed`). */
  name: string;
  /** A run that throws is logged here and the loop goes on. */
  logger?: Logger;
  /** Told of every run's result (metrics, tests). */
  onRun?(result: unknown): void;
}

export interface WorkerLoop {
  /** Stops scheduling runs and resolves once the run in progress, if any, has finished. */
  close(): Promise<void>;
}

/**
 * The optional in-process schedule of a worker; a deployer with a scheduler (cron, a queue) calls the
 * worker's `runOnce()` instead. The first run starts at once. Timers are unref'd: an idle loop does not
 * keep the process alive, and `close()` is how a graceful shutdown waits for the current run.
 */
export function startWorkerLoop(runOnce: () => Promise<unknown>, options: WorkerLoopOptions): WorkerLoop {
  if (!Number.isSafeInteger(options.intervalMs) || options.intervalMs < 1) {
    throw new TypeError(`startWorkerLoop: intervalMs must be a positive integer, got ${options.intervalMs}`);
  }
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: Promise<void> | undefined;

  const run = () => {
    timer = undefined;
    current = (async () => {
      try {
        const result = await runOnce();
        options.onRun?.(result);
      } catch (error) {
        options.logger?.error?.({
          event: 'worker.failed',
          worker: options.name,
          error: error instanceof Error ? error.message : String(error),
        });
      } finally {
        current = undefined;
        if (!closed) schedule();
      }
    })();
  };
  const schedule = () => {
    timer = setTimeout(run, options.intervalMs);
    timer.unref?.();
  };

  run();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
