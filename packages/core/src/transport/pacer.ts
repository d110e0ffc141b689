// Client-side pacing: a GCRA token bucket that schedules each request at the allowed spacing.
import { type Clock, systemClock } from '../clock/index.js';
import { sleep } from './sleep.js';

export interface PacerOptions {
  /** Requests allowed in any window of `windowMs` (the spec gives them per minute per client_id). */
  limit: number;
  /** Length of the window the limit applies to; default 60 000 ms. */
  windowMs?: number;
  /** Requests that may leave back to back before the spacing applies; default 5, at most `limit`. */
  burst?: number;
  /** Default the system clock. */
  clock?: Clock;
}

/** Hands out send slots; each `acquire` resolves when its request may leave. */
export interface Pacer {
  /** Waits for the next slot; rejects with `signal.reason` (and gives the slot back) if it aborts first. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Steady spacing between two requests once the burst is spent. */
  readonly intervalMs: number;
}

export const DEFAULT_BURST = 5;

/**
 * Generic cell rate algorithm. The spacing is `windowMs / (limit - burst + 1)`, so that even a request
 * burst followed by steady traffic never puts more than `limit` requests in any window of `windowMs`:
 * a server counting with a sliding or a fixed window never answers 429, and the steady rate stays within
 * `(burst - 1) / limit` of the allowed one (596/600 for reads with the defaults).
 */
export function createPacer(options: PacerOptions): Pacer {
  const { limit, windowMs = 60_000, clock = systemClock } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('pacer limit must be a positive integer');
  const burst = Math.min(Math.max(1, options.burst ?? DEFAULT_BURST), limit);
  const intervalMs = windowMs / (limit - burst + 1);
  const toleranceMs = (burst - 1) * intervalMs;
  // Theoretical arrival time of the next request; state of this pacer only.
  let theoreticalArrival = Number.NEGATIVE_INFINITY;

  return {
    intervalMs,
    async acquire(signal) {
      signal?.throwIfAborted();
      const at = clock.now().getTime();
      const previous = theoreticalArrival;
      const arrival = Math.max(previous, at);
      theoreticalArrival = arrival + intervalMs;
      const waitMs = Math.ceil(arrival - toleranceMs - at);
      if (waitMs <= 0) return;
      try {
        await sleep(waitMs, signal);
      } catch (error) {
        // Give the slot back when nobody reserved after us, so an abort does not slow the others.
        if (theoreticalArrival === arrival + intervalMs) theoreticalArrival = previous;
        throw error;
      }
    },
  };
}
