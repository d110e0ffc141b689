// The shared rate limiter on PostgreSQL: one fixed window per key, counted by a single atomic upsert.
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import { type Queryable, query } from './sql.js';

/**
 * Counts one hit. Windows are aligned on multiples of `windowMs` since the epoch, so every instance
 * agrees on them; the upsert restarts the count when the stored window is an older one.
 */
export async function consumeRateLimit(db: Queryable, hit: RateLimitHit): Promise<RateLimitDecision> {
  const now = hit.now.getTime();
  const start = now - (now % hit.windowMs);
  const end = new Date(start + hit.windowMs);
  const { rows } = await query<{ hits: number }>(
    db,
    `INSERT INTO fin_rate_limits (limit_key, window_start, window_end, hits) VALUES ($1, $2, $3, 1)
     ON CONFLICT (limit_key) DO UPDATE
       SET hits = CASE WHEN fin_rate_limits.window_start = excluded.window_start
                       THEN fin_rate_limits.hits + 1 ELSE 1 END,
           window_start = excluded.window_start, window_end = excluded.window_end
     RETURNING hits`,
    [hit.key, new Date(start), end],
  );
  const hits = rows[0]!.hits;
  return { allowed: hits <= hit.limit, remaining: Math.max(0, hit.limit - hits), resetAt: end };
}
