// The rate limiter port: a sliding window per key (a log of admitted hits), read and extended in one atomic step.

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
  /** Requests still admitted in the window ending now, after this one (0 when refused). */
  remaining: number;
  /** When one more request will be admitted (the oldest admitted hit leaves the window): `Retry-After`. */
  resetAt: Date;
}

/**
 * Admits `hit` when fewer than `limit` hits of `key` were admitted in the `windowMs` before `hit.now`
 * (a sliding window, so no `windowMs` span ever admits more than `limit`, wherever it starts). Only
 * admitted hits are logged: a refused one does not push the next admission further away.
 */
export interface RateLimiter {
  consumeRateLimit(hit: RateLimitHit): Promise<RateLimitDecision>;
}
