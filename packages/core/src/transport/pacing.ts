// Client-side pacing (spec section 8): one sliding-window pacer per rate class, so a burst up to the allowance leaves at once; a 429 holds them all.
import { type Clock, systemClock } from '../clock/index.js';
import { perMinuteOf, type RateClass } from '../endpoints/endpoint.js';
import type { RateLimitOptions } from './types.js';

export interface PacerOptions {
  /** Requests allowed in any window of `windowMs` (the spec gives them per minute per client_id). */
  limit: number;
  /** Length of the window the limit applies to; default 60 000 ms. */
  windowMs?: number;
  /**
   * Added to the window, so a server that counts arrivals (a little after our sends, and not always
   * equally late) never sees more than `limit` in its window; default 1 000 ms.
   */
  marginMs?: number;
  /** Default the system clock. */
  clock?: Clock;
}

/** Hands out send slots, first come first served; each `acquire` resolves when its request may leave. */
export interface Pacer {
  /**
   * Waits for the next slot, resolving `true` when the request had to wait for it (a full window, a hold,
   * callers ahead); rejects with `signal.reason` (taking no slot) if it aborts first.
   */
  acquire(signal?: AbortSignal): Promise<boolean>;
  /** Holds every caller until `untilMs` (clock time), as a server's `Retry-After` asks. */
  holdUntil(untilMs: number): void;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * A sliding window log: the send times of the last `limit` slots. A slot is free once fewer than `limit`
 * were handed out in the last `windowMs + marginMs`, and no hold is running: so up to `limit` requests
 * leave back to back, no window ever holds more, and steady traffic gets the whole allowance.
 */
export function createPacer(options: PacerOptions): Pacer {
  const { limit, windowMs = 60_000, marginMs = 1_000, clock = systemClock } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('pacer limit must be a positive integer');
  const sent: number[] = [];
  const queue: Waiter[] = [];
  let heldUntil = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;

  /** When the next slot frees: now, the end of a hold, or when the oldest send leaves the window. */
  const nextSlotAt = (now: number) => {
    const windowFreesAt = sent.length < limit ? now : (sent[0] ?? now) + windowMs + marginMs;
    return Math.max(now, heldUntil, windowFreesAt);
  };

  const serve = () => {
    timer = undefined;
    while (queue.length > 0) {
      const now = clock.now().getTime();
      const at = nextSlotAt(now);
      if (at > now) {
        timer = setTimeout(serve, at - now);
        return;
      }
      const waiter = queue.shift() as Waiter;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      sent.push(now);
      if (sent.length > limit) sent.shift();
      waiter.resolve();
    }
  };

  const reschedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    serve();
  };

  return {
    acquire(signal) {
      signal?.throwIfAborted();
      return new Promise<boolean>((resolve, reject) => {
        let waited = false;
        const waiter: Waiter = {
          resolve: () => resolve(waited),
          reject,
          signal,
          onAbort: () => {
            queue.splice(queue.indexOf(waiter), 1);
            reject(signal?.reason);
          },
        };
        signal?.addEventListener('abort', waiter.onAbort, { once: true });
        queue.push(waiter);
        if (timer === undefined) serve();
        // Not served by that call: whenever its slot comes, the request will have waited for it.
        waited = true;
      });
    },
    holdUntil(untilMs) {
      if (untilMs <= heldUntil) return;
      heldUntil = untilMs;
      reschedule();
    },
  };
}

/** The spec's limits per client_id (section 8), requests per minute: those of the registry's rate classes. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateClass, number>> = perMinuteOf;

export type Pacers = Partial<Record<RateClass, Pacer>>;

/** A 429 with `Retry-After` holds every caller of the client, whatever its class, until the time given. */
export function holdAll(pacers: Pacers, untilMs: number): void {
  for (const pacer of Object.values(pacers)) pacer?.holdUntil(untilMs);
}

/** The pacers of one client: the spec's limits unless `rateLimit` overrides them; none for `false`. */
export function createPacers(rateLimit: RateLimitOptions | false | undefined, clock: Clock): Pacers {
  if (rateLimit === false) return {};
  const pacers: Pacers = {};
  for (const rate of Object.keys(DEFAULT_RATE_LIMITS) as RateClass[]) {
    const limit = rateLimit?.[rate] ?? DEFAULT_RATE_LIMITS[rate];
    pacers[rate] = createPacer({ limit, clock });
  }
  return pacers;
}
