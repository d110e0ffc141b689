// Housekeeping in PostgreSQL (DESIGN 27): deletes or archives what outlived its retention in small batches, so no sweep holds locks the hot path needs.
import type pg from 'pg';
import { PROPOSAL_PURGE_MARGIN_MS, type PurgeReport, type RetentionPolicy } from '../ports/retention.js';
import { query } from './sql.js';

/** Rows one statement deletes at most: short transactions, short locks. */
export const PURGE_BATCH = 500;

/** Runs `statement` (it touches at most `PURGE_BATCH` rows and answers `count`) until a batch comes back short. */
async function batches(pool: pg.Pool, statement: string, values: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await query<{ count: string }>(pool, statement, values);
    const count = Number(rows[0]?.count ?? 0);
    total += count;
    if (count < PURGE_BATCH) return total;
  }
}

/** Deletes up to `PURGE_BATCH` rows of `table` matching `where` per statement until none is left. */
function sweep(pool: pg.Pool, table: string, where: string, values: unknown[]): Promise<number> {
  // SKIP LOCKED: a row a request is writing right now is left for the next sweep.
  return batches(
    pool,
    `WITH gone AS (DELETE FROM ${table} WHERE ctid IN (
       SELECT ctid FROM ${table} WHERE ${where} LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED) RETURNING 1)
     SELECT count(*) FROM gone`,
    values,
  );
}

/**
 * One batch of ended authorizations (last changed at or before `$1` when cancelled, `$2` when expired): `CANCELLED` ones move to the
 * archive with their contract, and with their proposal when no other stored authorization uses it (so it
 * is never offered again); `EXPIRED` ones (never confirmed: no credit) are deleted. One statement, so a
 * record is archived whole or stays live whole.
 */
const ARCHIVE_ENDED = `
WITH picked AS (
  SELECT authorization_id FROM fin_authorizations
  WHERE (status = 'CANCELLED' AND updated_at <= $1) OR (status = 'EXPIRED' AND updated_at <= $2)
  ORDER BY updated_at LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED
), gone AS (
  DELETE FROM fin_authorizations a USING picked p WHERE a.authorization_id = p.authorization_id
  RETURNING a.*
), contracts AS (
  DELETE FROM fin_contracts c USING gone g WHERE c.authorization_id = g.authorization_id
  RETURNING c.*, g.updated_at AS ended_at, g.status AS ended_as
), archived_contracts AS (
  INSERT INTO fin_contracts_archive
  SELECT contract_id, authorization_id, principal_cents, installments, created_at, ended_at
  FROM contracts WHERE ended_as = 'CANCELLED'
), archived AS (
  INSERT INTO fin_authorizations_archive SELECT g.*, g.updated_at FROM gone g WHERE g.status = 'CANCELLED'
), proposals AS (
  DELETE FROM fin_proposals p
  USING (SELECT proposal_id, max(updated_at) AS ended_at FROM gone WHERE status = 'CANCELLED' GROUP BY proposal_id) g
  WHERE p.proposal_id = g.proposal_id
    AND NOT EXISTS (SELECT 1 FROM fin_authorizations a WHERE a.proposal_id = p.proposal_id
                      AND a.authorization_id NOT IN (SELECT authorization_id FROM gone))
  RETURNING p.*, g.ended_at
), archived_proposals AS (
  INSERT INTO fin_proposals_archive SELECT * FROM proposals
)
SELECT count(*) AS count, count(*) FILTER (WHERE status = 'CANCELLED') AS archived FROM gone`;

/**
 * One batch of proposals approved at or before `$1` that no stored authorization uses: no longer offered
 * (decision LC-3), so deleted; one whose use was archived goes to the archive instead.
 */
const PURGE_UNUSED_PROPOSALS = `
WITH picked AS (
  SELECT proposal_id FROM fin_proposals p
  WHERE approved_at <= $1 AND NOT EXISTS (SELECT 1 FROM fin_authorizations a WHERE a.proposal_id = p.proposal_id)
  LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED
), gone AS (
  DELETE FROM fin_proposals p USING picked WHERE p.proposal_id = picked.proposal_id RETURNING p.*
), archived AS (
  INSERT INTO fin_proposals_archive
  SELECT g.*, x.ended_at FROM gone g
  JOIN LATERAL (SELECT max(ended_at) AS ended_at FROM fin_authorizations_archive aa
                WHERE aa.proposal_id = g.proposal_id) x ON x.ended_at IS NOT NULL
)
SELECT count(*) AS count FROM gone`;

/** Ended authorizations in batches, after making the archive partitions of the months they ended in. */
async function archiveEnded(pool: pg.Pool, cancelledBefore: Date, expiredBefore: Date) {
  const { rows } = await query<{ oldest: Date | null }>(
    pool,
    `SELECT min(updated_at) AS oldest FROM fin_authorizations WHERE status = 'CANCELLED' AND updated_at <= $1`,
    [cancelledBefore],
  );
  const oldest = rows[0]?.oldest;
  if (oldest) await query(pool, 'SELECT fin_archive_partitions($1, $2)', [oldest, cancelledBefore]);
  let [expired, archived] = [0, 0];
  for (;;) {
    const result = await query<{ count: string; archived: string }>(pool, ARCHIVE_ENDED, [
      cancelledBefore,
      expiredBefore,
    ]);
    const count = Number(result.rows[0]?.count ?? 0);
    archived += Number(result.rows[0]?.archived ?? 0);
    expired += count - Number(result.rows[0]?.archived ?? 0);
    if (count < PURGE_BATCH) return { expiredAuthorizations: expired, archivedAuthorizations: archived };
  }
}

const before = (now: Date, ms: number) => new Date(now.getTime() - ms);

/**
 * Every lifecycle step of the store's table (docs/operations.md), oldest rule first: tokens, idempotency
 * records past `retentionMs` (counted from completion, or from the claim for one never completed),
 * rate-limit windows that ended, ended holds, delivered and dead webhook events (an
 * `authorization.expired` one stays while its authorization is stored: it is what says the expiry was
 * announced), ended authorizations, then proposals no longer offered.
 */
export async function purgeExpired(
  pool: pg.Pool,
  now: Date,
  retentionMs: number,
  retention: RetentionPolicy,
): Promise<PurgeReport> {
  const tokens = await sweep(pool, 'fin_tokens', 'expires_at <= $1', [before(now, retention.tokensMs)]);
  const idempotencyKeys = await sweep(
    pool,
    'fin_idempotency_keys',
    'coalesce(completed_at, claimed_at) <= $1',
    [before(now, retentionMs)],
  );
  const rateLimitWindows = await sweep(pool, 'fin_rate_limits', 'window_end <= $1', [now]);
  const endedHolds = await sweep(
    pool,
    'fin_stock_holds',
    `next_check_at IS NULL AND (record->>'updatedAt')::timestamptz <= $1`,
    [before(now, retention.endedHoldsMs)],
  );
  const webhookEvents = await sweep(
    pool,
    'fin_webhook_events',
    `((status = 'DELIVERED' AND delivered_at <= $1) OR (status = 'DEAD' AND occurred_at <= $2))
     AND NOT (type = 'authorization.expired' AND EXISTS (
       SELECT 1 FROM fin_authorizations a WHERE a.authorization_id = fin_webhook_events.authorization_id))`,
    [before(now, retention.deliveredEventsMs), before(now, retention.deadEventsMs)],
  );
  const ended = await archiveEnded(
    pool,
    before(now, retention.cancelledAuthorizationsMs),
    before(now, retention.expiredAuthorizationsMs),
  );
  const proposals = await batches(pool, PURGE_UNUSED_PROPOSALS, [
    before(now, retention.unusedProposalsMs + PROPOSAL_PURGE_MARGIN_MS),
  ]);
  return { tokens, idempotencyKeys, rateLimitWindows, endedHolds, webhookEvents, ...ended, proposals };
}
