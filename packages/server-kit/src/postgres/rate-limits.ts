// The shared rate limiter on PostgreSQL: one fixed window per key, counted by a single atomic upsert.
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import { type Queryable, query } from './sql.js';

/**
 * Windows are aligned on multiples of `windowMs` since the epoch, so every instance agrees on them;
 * the upsert restarts the count when the stored window is an older one.
 */
export function windowOf(hit: RateLimitHit): { start: Date; end: Date } {
  const now = hit.now.getTime();
  const start = now - (now % hit.windowMs);
  return { start: new Date(start), end: new Date(start + hit.windowMs) };
}

/** The upsert that counts one hit, `RETURNING hits`; its arguments are the placeholders of key, start, end. */
export const countHitSql = (key: string, start: string, end: string) =>
  `INSERT INTO fin_rate_limits (limit_key, window_start, window_end, hits) VALUES (${key}, ${start}, ${end}, 1)
   ON CONFLICT (limit_key) DO UPDATE
     SET hits = CASE WHEN fin_rate_limits.window_start = excluded.window_start
                     THEN fin_rate_limits.hits + 1 ELSE 1 END,
         window_start = excluded.window_start, window_end = excluded.window_end
   RETURNING hits`;

export const decisionOf = (hit: RateLimitHit, hits: number, end: Date): RateLimitDecision => ({
  allowed: hits <= hit.limit,
  remaining: Math.max(0, hit.limit - hits),
  resetAt: end,
});

/** Counts one hit. */
export async function consumeRateLimit(db: Queryable, hit: RateLimitHit): Promise<RateLimitDecision> {
  const { start, end } = windowOf(hit);
  const { rows } = await query<{ hits: number }>(db, countHitSql('$1', '$2', '$3'), [hit.key, start, end]);
  return decisionOf(hit, rows[0]!.hits, end);
}
