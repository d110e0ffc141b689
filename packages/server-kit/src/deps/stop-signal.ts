// When a worker run stops between items: its caller's signal (a closing WorkerLoop) or the service closing.
import type { ServiceDeps } from './service-deps.js';

export interface WorkerRunOptions {
  /** Aborting it makes the run return its summary before the next item (`startWorkerLoop` passes one). */
  signal?: AbortSignal;
}

/** Whether the run should stop before its next item. */
export function stopSignal(deps: Pick<ServiceDeps, 'stopping'>, options: WorkerRunOptions): () => boolean {
  return () => deps.stopping.aborted || options.signal?.aborted === true;
}
