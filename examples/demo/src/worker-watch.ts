// Waits for a run of one of the financing service's workers that did something (e.g. verified a cancellation).
import type { WorkerName, WorkerRun } from '@fin/example-financing-service';

export interface WorkerWatch {
  /** Give to `startFinancingService({ onWorkerRun })`. */
  onRun(run: WorkerRun): void;
  /** The next run for which `matches` holds; rejects naming `what` after `timeoutMs`. */
  next(what: string, matches: (run: WorkerRun) => boolean, timeoutMs: number): Promise<WorkerRun>;
  /** Resolves once no run of `worker` that started before this call is still going: two runs ended since. */
  settled(worker: WorkerName, timeoutMs: number): Promise<void>;
}

export function workerWatch(): WorkerWatch {
  const waiting = new Set<{ matches: (run: WorkerRun) => boolean; resolve: (run: WorkerRun) => void }>();
  const watch: WorkerWatch = {
    onRun(run) {
      for (const waiter of waiting) {
        if (waiter.matches(run)) {
          waiting.delete(waiter);
          waiter.resolve(run);
        }
      }
    },
    next(what, matches, timeoutMs) {
      return new Promise((resolve, reject) => {
        const waiter = {
          matches,
          resolve: (run: WorkerRun) => {
            clearTimeout(timer);
            resolve(run);
          },
        };
        const timer = setTimeout(() => {
          waiting.delete(waiter);
          reject(new Error(`no ${what} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.add(waiter);
      });
    },
    async settled(worker, timeoutMs) {
      // A loop never runs twice at once: the second run to end started after the first one ended.
      for (let run = 0; run < 2; run++) {
        await watch.next(`a run of the ${worker}`, (candidate) => candidate.worker === worker, timeoutMs);
      }
    },
  };
  return watch;
}
