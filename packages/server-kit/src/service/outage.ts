// Database outages as the log sees them: one line when the store becomes unavailable, one when it is back, with counts.
import type { Logger } from '@fin/core';

/**
 * Tracks whether the store answers. The first failure logs `store.unavailable` (error) with its reason;
 * while it lasts, requests are only counted; the first request served again logs `store.recovered`
 * (warn) with how many were refused, by reason, and for how long.
 */
export function createOutageMonitor(logger: Logger | undefined) {
  let outage: { since: number; refused: number; reasons: Record<string, number> } | undefined;
  return {
    unavailable(reason: string): void {
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
