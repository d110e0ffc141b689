// Waits for a run of one of the financing service's workers that did something (e.g. verified a cancellation).
import type { WorkerName, WorkerRun } from '@fin/example-financing-service';
import { waiters } from './waiters.js';

export interface WorkerWatch {
  /** Give to `startFinancingService({ onWorkerRun })`. */
  onRun(run: WorkerRun): void;
  /** The next run for which `matches` holds; rejects naming `what` after `timeoutMs`. */
  next(what: string, matches: (run: WorkerRun) => boolean, timeoutMs: number): Promise<WorkerRun>;
  /** Resolves once no run of `worker` that started before this call is still going: two runs ended since. */
  settled(worker: WorkerName, timeoutMs: number): Promise<void>;
}

export function workerWatch(): WorkerWatch {
  const runs = waiters<WorkerRun>();
  const watch: WorkerWatch = {
    onRun: (run) => runs.notify(run),
    next: (what, matches, timeoutMs) => runs.next(what, matches, timeoutMs),
    async settled(worker, timeoutMs) {
      // A loop never runs twice at once: the second run to end started after the first one ended.
      for (let run = 0; run < 2; run++) {
        await watch.next(`a run of the ${worker}`, (candidate) => candidate.worker === worker, timeoutMs);
      }
    },
  };
  return watch;
}
