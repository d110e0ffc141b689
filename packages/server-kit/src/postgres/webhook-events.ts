// The Store port's webhook part on PostgreSQL: due events leased with FOR UPDATE SKIP LOCKED, attempts, listing, replay.
import type pg from 'pg';
import {
  type ClaimWebhookEvents,
  listLimit,
  type WebhookAttempt,
  type WebhookEventQuery,
  type WebhookEventStore,
  type WebhookReplay,
} from '../ports/webhook-events.js';
import type { WorkerLease } from '../ports/worker-lease.js';
import { selectLeased } from './authorizations.js';
import { query } from './sql.js';
import { toWebhookEventRecord, type WebhookEventRow } from './webhook-event-rows.js';

/**
 * The due events no lease holds and no earlier PENDING event of their authorization precedes, dealt out in
 * turns per partner (every partner's oldest, then every partner's second...: a fair share, WF-1), locked with
 * SKIP LOCKED (another instance's claim in progress is passed over, not waited for) and leased in the same
 * statement. The row conditions are repeated where the rows are locked, so a row another claim leased
 * meanwhile is re-checked and passed over. `$1` now, `$2` owner, `$3` lease end, `$4` limit.
 */
const CLAIM_DUE = `
WITH turns AS (
  SELECT e.event_id, row_number() OVER (PARTITION BY e.client_id ORDER BY e.next_attempt_at, e.event_id) AS turn
  FROM fin_webhook_events e
  WHERE e.status = 'PENDING' AND e.next_attempt_at <= $1
    AND (e.lease_until IS NULL OR e.lease_until <= $1)
    AND NOT EXISTS (
      SELECT 1 FROM fin_webhook_events p
      WHERE p.authorization_id = e.authorization_id AND p.sequence < e.sequence AND p.status = 'PENDING')),
due AS (
  SELECT e.event_id FROM fin_webhook_events e JOIN turns t ON t.event_id = e.event_id
  WHERE e.status = 'PENDING' AND e.next_attempt_at <= $1
    AND (e.lease_until IS NULL OR e.lease_until <= $1)
  ORDER BY t.turn, e.next_attempt_at, e.event_id
  LIMIT $4
  FOR UPDATE OF e SKIP LOCKED)
UPDATE fin_webhook_events e SET lease_owner = $2, lease_until = $3
FROM due WHERE e.event_id = due.event_id
RETURNING e.*`;

async function claimDue(pool: pg.Pool, { now, limit, lease }: ClaimWebhookEvents) {
  const { rows } = await query<WebhookEventRow>(pool, CLAIM_DUE, [now, lease.owner, lease.until, limit]);
  return rows.map(toWebhookEventRecord).sort((a, b) => a.nextAttemptAt!.localeCompare(b.nextAttemptAt!));
}

async function recordAttempt(pool: pg.Pool, attempt: WebhookAttempt) {
  const written = await query(
    pool,
    `UPDATE fin_webhook_events SET status = $3, attempts = $4, next_attempt_at = $5, delivered_to = $6::jsonb,
       delivered_at = CASE WHEN $3 = 'DELIVERED' THEN $7::timestamptz END, last_outcome = $8,
       lease_owner = NULL, lease_until = NULL
     WHERE event_id = $1 AND lease_owner = $2`,
    [
      attempt.eventId,
      attempt.owner,
      attempt.status,
      attempt.attempts,
      attempt.nextAttemptAt,
      JSON.stringify(attempt.deliveredTo),
      attempt.now,
      attempt.lastOutcome ?? null,
    ],
  );
  return written.rowCount === 1;
}

async function list(pool: pg.Pool, q: WebhookEventQuery) {
  const { rows } = await query<WebhookEventRow>(
    pool,
    `SELECT * FROM fin_webhook_events
     WHERE ($1::text IS NULL OR client_id = $1) AND ($2::text IS NULL OR authorization_id = $2)
       AND ($3::text IS NULL OR status = $3)
     ORDER BY occurred_at, authorization_id, sequence LIMIT $4`,
    [q.clientId ?? null, q.authorizationId ?? null, q.status ?? null, listLimit(q.limit)],
  );
  return rows.map(toWebhookEventRecord);
}

async function replay(pool: pg.Pool, { eventIds, authorizationId, clientId, now }: WebhookReplay) {
  const where = eventIds
    ? 'event_id = ANY($2::text[])'
    : authorizationId !== undefined
      ? 'authorization_id = $2'
      : `client_id = $2 AND status = 'DEAD'`;
  const replayed = await query(
    pool,
    `UPDATE fin_webhook_events SET status = 'PENDING', attempts = 0, next_attempt_at = $1,
       delivered_to = '[]', delivered_at = NULL, last_outcome = NULL, lease_owner = NULL, lease_until = NULL
     WHERE ${where}`,
    [now, eventIds ? [...eventIds] : (authorizationId ?? clientId ?? null)],
  );
  return replayed.rowCount ?? 0;
}

function listExpiredWithoutEvent(
  pool: pg.Pool,
  q: { expiredBefore: Date; expiredAfter: Date; limit: number; lease?: WorkerLease },
) {
  return selectLeased(
    pool,
    `a.status IN ('AUTHORIZED', 'EXPIRED') AND a.sale_number IS NULL
     AND a.expires_at >= $1 AND a.expires_at < $2
     AND NOT EXISTS (SELECT 1 FROM fin_webhook_events w
       WHERE w.authorization_id = a.authorization_id AND w.type = 'authorization.expired')`,
    'a.expires_at, a.authorization_id',
    [q.expiredAfter, q.expiredBefore],
    q.limit,
    q.lease,
  );
}

/** The webhook operations of `postgresStore()` on its pool. */
export function postgresWebhookEvents(pool: pg.Pool): WebhookEventStore {
  return {
    claimDueWebhookEvents: (input) => claimDue(pool, input),
    recordWebhookAttempt: (attempt) => recordAttempt(pool, attempt),
    listWebhookEvents: (q) => list(pool, q),
    replayWebhookEvents: (input) => replay(pool, input),
    listExpiredWithoutEvent: (q) => listExpiredWithoutEvent(pool, q),
  };
}
