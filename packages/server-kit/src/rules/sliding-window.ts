// The sliding-window rate limit as a pure function: a key's admitted hits per slice in, the decision and the next slices out.
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';

/** Admitted hits counted per slice of `sliceMs(windowMs)`, oldest slice first. */
export interface WindowSlice {
  /** Start of the slice (ms since the epoch, a multiple of the slice length). */
  start: number;
  hits: number;
}

/** A window is counted in 60 slices (1 s for the spec's minute): the log stays small whatever the load. */
export const sliceMs = (windowMs: number) => Math.max(1, Math.ceil(windowMs / 60));

/**
 * How long a slice is kept: one window more than it is counted. Instances share a key with clocks that
 * may disagree; a hit stamped earlier than hits already counted must still see every slice of its own
 * window, or the slices a later clock dropped would be admitted again (over the limit). Clocks within a
 * window of each other (NTP keeps them within milliseconds) are then counted exactly.
 */
export const retainedMs = (windowMs: number) => 2 * windowMs;

/**
 * Admits `hit` when the slices that may still hold a hit of the last `windowMs` (every slice ending after
 * `now - windowMs`, later ones included) count fewer than `limit`. A slice is counted whole, so no span of
 * `windowMs`, wherever it starts, ever admits more than `limit`; the price is that a hit leaves the count up
 * to one slice late.
 * Refused hits are not counted. `resetAt`: when enough old slices have left for one more hit.
 */
export function slidingWindowHit(
  slices: readonly WindowSlice[],
  hit: RateLimitHit,
): { decision: RateLimitDecision; slices: WindowSlice[] } {
  const now = hit.now.getTime();
  const slice = sliceMs(hit.windowMs);
  // The slices are never changed in place: only the one counting this hit is new (no copy of the others).
  const kept = slices.filter((s) => s.start + slice > now - retainedMs(hit.windowMs));
  const inWindow = (s: WindowSlice) => s.start + slice > now - hit.windowMs;
  let counted = kept.reduce((sum, s) => (inWindow(s) ? sum + s.hits : sum), 0);
  const allowed = counted < hit.limit;
  if (allowed) {
    const start = now - (now % slice);
    const last = kept.at(-1);
    if (last && last.start === start) kept[kept.length - 1] = { start, hits: last.hits + 1 };
    else {
      kept.push({ start, hits: 1 });
      // Only a clock that went back puts the new slice before the last one.
      if (last && last.start > start) kept.sort((a, b) => a.start - b.start);
    }
    counted += 1;
  }
  // The next admission needs `counted - limit + 1` hits gone: the oldest slices leave first.
  let resetAt = now;
  let excess = counted - hit.limit + 1;
  for (const s of kept) {
    if (excess <= 0) break;
    if (!inWindow(s)) continue;
    excess -= s.hits;
    resetAt = s.start + slice + hit.windowMs;
  }
  return {
    decision: { allowed, remaining: Math.max(0, hit.limit - counted), resetAt: new Date(resetAt) },
    slices: kept,
  };
}
