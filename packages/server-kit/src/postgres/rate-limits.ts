// The shared rate limiter on PostgreSQL: a sliding window per key, admitted by one call of `fin_rate_limit_hit` (migration 7).
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import { LIMIT_REFUSED } from './migrations/0008-limit-hit-last.js';
import { type Queryable, query, sqlState } from './sql.js';

/** The limiter functions' arguments, typed, from the placeholders of key, now, window, limit. */
const hitArguments = (key: string, now: string, windowMs: string, limit: string) =>
  `${key}::text, ${now}::bigint, ${windowMs}::bigint, ${limit}::integer`;

/** The call that admits or refuses one hit on its own (`$1..$4`: `rateLimitHitValues`). */
const RATE_LIMIT_HIT = `SELECT allowed, remaining, reset_at_ms FROM fin_rate_limit_hit(${hitArguments('$1', '$2', '$3', '$4')})`;

/**
 * The hit as a claim statement's last step (migration 8): a json `{remaining, reset_at_ms}` column when
 * admitted; over the limit, the statement fails with `LIMIT_REFUSED` and nothing it wrote stays.
 */
export const rateLimitAdmitSql = (key: string, now: string, windowMs: string, limit: string) =>
  `fin_rate_limit_admit(${hitArguments(key, now, windowMs, limit)})`;

/** What `rateLimitAdmitSql` answers, admitted (its column) or refused (its error's detail). */
export interface AdmitAnswer {
  remaining: number;
  reset_at_ms: number;
}

// `allowed` first (TR-5): the statement's answer holds `remaining` and `reset_at_ms` alone (migration 8).
export const admittedOf = (answer: AdmitAnswer): RateLimitDecision =>
  decisionOf({ allowed: true, ...answer });

/** The refusal a claim statement failed with, or `undefined` for any other error. */
export function refusalOf(error: unknown): RateLimitDecision | undefined {
  if (sqlState(error) !== LIMIT_REFUSED) return undefined;
  const answer = JSON.parse((error as { detail: string }).detail) as AdmitAnswer;
  return decisionOf({ allowed: false, ...answer });
}

export const rateLimitHitValues = (hit: RateLimitHit) => [
  hit.key,
  hit.now.getTime(),
  hit.windowMs,
  hit.limit,
];

export interface RateLimitRow extends AdmitAnswer {
  allowed: boolean;
}

export const decisionOf = (row: RateLimitRow): RateLimitDecision => ({
  allowed: row.allowed,
  remaining: row.remaining,
  resetAt: new Date(row.reset_at_ms),
});

/** Admits or refuses one hit. */
export async function consumeRateLimit(db: Queryable, hit: RateLimitHit): Promise<RateLimitDecision> {
  const { rows } = await query<RateLimitRow>(db, RATE_LIMIT_HIT, rateLimitHitValues(hit));
  return decisionOf(rows[0]!);
}
