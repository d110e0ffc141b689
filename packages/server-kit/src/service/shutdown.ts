// The graceful shutdown sequence of service.close(): refuse new work at once, drain within a deadline, then release.
import type { Logger } from '@fin/core';
import type { WorkerLoop } from '../workers/worker-loop.js';
import type { InFlight } from './in-flight.js';

export interface ShutdownParts {
  /** Aborted first: requests are refused and workers stop between items from then on. */
  stopping: AbortController;
  inFlight: InFlight;
  loops: readonly WorkerLoop[];
  shutdownTimeoutMs: number;
  /** Closes the store when the service created it; nothing for a store the host passed in. */
  release(): Promise<void>;
  logger: Logger | undefined;
}

/**
 * Logs `service.closing` (with what is in flight), then `service.close_timeout` if the deadline passes
 * first, then `service.closed` (`drained`: whether everything finished in time).
 */
export async function shutdown(parts: ShutdownParts): Promise<void> {
  const { stopping, inFlight, loops, shutdownTimeoutMs, logger } = parts;
  stopping.abort();
  logger?.info?.({ event: 'service.closing', inFlight: inFlight.size, workers: loops.length });
  // Each loop stops between items; its run in progress is waited for with the requests, under one deadline.
  inFlight.track(Promise.all(loops.map((loop) => loop.close())));
  const drained = await inFlight.drain(shutdownTimeoutMs);
  if (!drained)
    logger?.warn?.({ event: 'service.close_timeout', inFlight: inFlight.size, shutdownTimeoutMs });
  await parts.release();
  logger?.info?.({ event: 'service.closed', drained });
}
