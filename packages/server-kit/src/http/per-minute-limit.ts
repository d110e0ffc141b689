// The spec's per-minute limits (section 8): one hit on a key's window, and the `Retry-After` when refused.
import type { RateLimitDecision, RateLimiter, RateLimitHit } from '../ports/rate-limiter.js';

const MINUTE_MS = 60_000;

/** The hit a request counts against `key`'s per-minute `limit`. */
export const perMinuteHit = (key: string, limit: number, now: Date): RateLimitHit => ({
  key,
  limit,
  windowMs: MINUTE_MS,
  now,
});

/** `undefined` when the request may go on, else the `Retry-After` header (whole seconds, at least 1). */
export function retryAfter(decision: RateLimitDecision, now: Date): Record<string, string> | undefined {
  if (decision.allowed) return undefined;
  const ms = Math.max(0, decision.resetAt.getTime() - now.getTime());
  return { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) };
}

/** Counts one hit: `undefined` when the request may go on, else the `Retry-After` header. */
export async function perMinuteLimit(
  limiter: RateLimiter,
  key: string,
  limit: number,
  now: Date,
): Promise<Record<string, string> | undefined> {
  return retryAfter(await limiter.consumeRateLimit(perMinuteHit(key, limit, now)), now);
}
