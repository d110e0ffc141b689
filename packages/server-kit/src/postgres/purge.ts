// Housekeeping in PostgreSQL: deletes what outlived its retention in small batches, so no sweep holds locks the hot path needs.
import type pg from 'pg';
import { query } from './sql.js';

const DAY_MS = 86_400_000;

/** Rows one statement deletes at most: short transactions, short locks. */
export const PURGE_BATCH = 500;

/** Deletes up to `PURGE_BATCH` rows of `table` matching `where` per statement until none is left. */
async function sweep(pool: pg.Pool, table: string, where: string, values: unknown[]): Promise<number> {
  let deleted = 0;
  for (;;) {
    // SKIP LOCKED: a row a request is writing right now is left for the next sweep.
    const result = await query(
      pool,
      `DELETE FROM ${table} WHERE ctid IN (
         SELECT ctid FROM ${table} WHERE ${where} LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED)`,
      values,
    );
    deleted += result.rowCount ?? 0;
    if ((result.rowCount ?? 0) < PURGE_BATCH) return deleted;
  }
}

/**
 * Tokens a day past expiry, idempotency records past `retentionMs` (counted from completion, or from the
 * claim for one never completed) and rate-limit windows that ended.
 */
export async function purgeExpired(pool: pg.Pool, now: Date, retentionMs: number) {
  return {
    tokens: await sweep(pool, 'fin_tokens', 'expires_at <= $1', [new Date(now.getTime() - DAY_MS)]),
    idempotencyKeys: await sweep(pool, 'fin_idempotency_keys', 'coalesce(completed_at, claimed_at) <= $1', [
      new Date(now.getTime() - retentionMs),
    ]),
    rateLimitWindows: await sweep(pool, 'fin_rate_limits', 'window_end <= $1', [now]),
  };
}
