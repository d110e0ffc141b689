// The shared rate limiter on PostgreSQL: a sliding window per key, admitted by one call of migration 2's function.
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import { type Queryable, query } from './sql.js';

/** The call that admits or refuses one hit; its arguments are the placeholders of key, now, window, limit. */
export const rateLimitHitSql = (key: string, now: string, windowMs: string, limit: string) =>
  `SELECT allowed, remaining, reset_at_ms FROM fin_rate_limit_hit(${key}::text, ${now}::bigint, ${windowMs}::bigint, ${limit}::integer)`;

export const rateLimitHitValues = (hit: RateLimitHit) => [
  hit.key,
  hit.now.getTime(),
  hit.windowMs,
  hit.limit,
];

export interface RateLimitRow {
  allowed: boolean;
  remaining: number;
  reset_at_ms: number;
}

export const decisionOf = (row: RateLimitRow): RateLimitDecision => ({
  allowed: row.allowed,
  remaining: row.remaining,
  resetAt: new Date(row.reset_at_ms),
});

/** Admits or refuses one hit. */
export async function consumeRateLimit(db: Queryable, hit: RateLimitHit): Promise<RateLimitDecision> {
  const { rows } = await query<RateLimitRow>(
    db,
    rateLimitHitSql('$1', '$2', '$3', '$4'),
    rateLimitHitValues(hit),
  );
  return decisionOf(rows[0]!);
}
