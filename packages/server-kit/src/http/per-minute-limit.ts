// The spec's per-minute limits (section 8): one hit on a key's window, and the `Retry-After` when refused.
import type { RateLimiter } from '../ports/rate-limiter.js';

const MINUTE_MS = 60_000;

/** `undefined` when the request may go on, else the `Retry-After` header (whole seconds, at least 1). */
export async function perMinuteLimit(
  limiter: RateLimiter,
  key: string,
  limit: number,
  now: Date,
): Promise<Record<string, string> | undefined> {
  const hit = await limiter.consumeRateLimit({ key, limit, windowMs: MINUTE_MS, now });
  if (hit.allowed) return undefined;
  const ms = Math.max(0, hit.resetAt.getTime() - now.getTime());
  return { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) };
}
