// Server-side rate limiting of the simulated partner: a sliding window per client_id, on the simulation's clock.

export interface RateLimitVerdict {
  allowed: boolean;
  /** Whole seconds until a slot frees (for `Retry-After`), when refused. */
  retryAfterSeconds: number;
}

/**
 * At most `limit` requests in any `windowMs` span per key. A refused request takes no slot, as a
 * gateway that rejects early does; so a client that honours `Retry-After` always gets through.
 */
export function createSlidingWindow(limit: number, windowMs: number) {
  const stamps = new Map<string, number[]>();
  return {
    take(key: string, nowMs: number): RateLimitVerdict {
      const recent = (stamps.get(key) ?? []).filter((at) => at > nowMs - windowMs);
      stamps.set(key, recent);
      if (recent.length < limit) {
        recent.push(nowMs);
        return { allowed: true, retryAfterSeconds: 0 };
      }
      const freesAt = recent[recent.length - limit]! + windowMs;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - nowMs) / 1000)) };
    },
  };
}
