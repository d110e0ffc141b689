// Database outages as the log sees them (one line when the store becomes unavailable, one when it is back, with counts), and the last refusal for readiness.
import type { Clock, Logger } from '@fin/core';

/**
 * Tracks whether the store answers. The first failure logs `store.unavailable` (error) with its reason;
 * while it lasts, requests are only counted; the first request served again logs `store.recovered`
 * (warn) with how many were refused, by reason, and for how long.
 */
export type OutageMonitor = ReturnType<typeof createOutageMonitor>;

export function createOutageMonitor(logger: Logger | undefined, clock: Clock) {
  let outage: { since: number; refused: number; reasons: Record<string, number> } | undefined;
  let lastRefusal: Date | undefined;
  return {
    /** When a request was last answered 503 for the store (readiness reads it, RDY-2). */
    lastRefusal: () => lastRefusal,
    unavailable(reason: string): void {
      lastRefusal = clock.now();
      if (!outage) {
        outage = { since: performance.now(), refused: 0, reasons: {} };
        logger?.error?.({ event: 'store.unavailable', reason });
      }
      outage.refused += 1;
      outage.reasons[reason] = (outage.reasons[reason] ?? 0) + 1;
    },
    served(): void {
      if (!outage) return;
      const { since, refused, reasons } = outage;
      outage = undefined;
      logger?.warn?.({
        event: 'store.recovered',
        refused,
        reasons,
        unavailableMs: Math.ceil(performance.now() - since),
      });
    },
  };
}
