// The rate limiter port: one fixed-window counter per key, incremented and read in one atomic step.

export interface RateLimitHit {
  /** e.g. `token:<client_id>` or `write:<clientId>`. */
  key: string;
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
  now: Date;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Requests left in this window after this one (0 when refused). */
  remaining: number;
  /** When the current window ends: `Retry-After` is derived from it. */
  resetAt: Date;
}

/**
 * Counts one request against `key`. Windows are aligned on multiples of `windowMs` since the epoch, so
 * every instance sharing a store agrees on them. A refused request is counted too (it still costs).
 */
export interface RateLimiter {
  consumeRateLimit(hit: RateLimitHit): Promise<RateLimitDecision>;
}
