// The service's background work in this process, each on its own startWorkerLoop: catalog sync, R-08 verifier, poller, purge, stock holds, webhooks.
import type { Logger } from '@fin/core';
import { startWorkerLoop, type WorkerLoop } from '@fin/server-kit';

export type WorkerName =
  | 'catalog-sync'
  | 'cancellation-verifier'
  | 'confirmation-poller'
  | 'purge'
  // Issue 30: extends, releases and settles the stock holds the service made.
  | 'stock-holds'
  | 'authorization-expiry'
  | 'webhook-delivery';

/** Pause after each run of each worker, in milliseconds (the periods docs/server-kit.md suggests). */
export type WorkerSchedule = Record<WorkerName, number>;

export const defaultSchedule: WorkerSchedule = {
  'catalog-sync': 86_400_000,
  'cancellation-verifier': 60_000,
  'confirmation-poller': 30_000,
  purge: 3_600_000,
  'stock-holds': 30_000,
  'authorization-expiry': 60_000,
  'webhook-delivery': 5_000,
};

/** One finished run: the worker's own summary (`VerificationSummary`, `CatalogSyncResult[]` ...). */
export interface WorkerRun {
  worker: WorkerName;
  result: unknown;
}

export interface WorkerOptions {
  schedule: WorkerSchedule;
  logger?: Logger;
  onRun?(run: WorkerRun): void;
}

/**
 * Starts one loop per worker given (each runs at once, then after its pause). Each run gets its loop's
 * signal, aborted by `close()` (the service's `close()` for loops attached to it): pass it on, so the
 * worker stops between items. `close()` waits for the runs in progress.
 */
export function startWorkers(
  workers: Partial<Record<WorkerName, (signal: AbortSignal) => Promise<unknown>>>,
  options: WorkerOptions,
): { loops: WorkerLoop[]; close(): Promise<void> } {
  const loops = Object.entries(workers).map(([name, runOnce]) => {
    const worker = name as WorkerName;
    return startWorkerLoop(runOnce, {
      name: worker,
      intervalMs: options.schedule[worker],
      logger: options.logger,
      onRun: (result) => options.onRun?.({ worker, result }),
    });
  });
  return { loops, close: async () => void (await Promise.all(loops.map((loop) => loop.close()))) };
}
