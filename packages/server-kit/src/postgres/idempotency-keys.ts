// Idempotency keys in PostgreSQL: the primary key (client, key) is the one claim; a stale row is taken over by an upsert.
import type { StoredResponse } from '../ports/records.js';
import type { IdempotencyClaim, IdempotencyClaimResult, IdempotencyKeyRef } from '../ports/store.js';
import { type Queryable, query } from './sql.js';

/** A row that vanished between our two statements (released, or swept) is claimed again; this bounds it. */
const MAX_ROUNDS = 5;

/**
 * Inserts the claim, or takes over a row that no longer counts (a lease that ran out: the instance that
 * held it crashed; a completed answer older than the retention). Any other existing row is read back
 * and answered as replay, conflict or in progress.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  claim: IdempotencyClaim,
): Promise<IdempotencyClaimResult> {
  const leaseUntil = new Date(claim.now.getTime() + claim.leaseMs);
  const retiredBefore = new Date(claim.now.getTime() - claim.retentionMs);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const claimed = await query(
      db,
      `INSERT INTO fin_idempotency_keys (client_id, idem_key, fingerprint, owner, claimed_at, lease_until)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (client_id, idem_key) DO UPDATE
         SET fingerprint = excluded.fingerprint, owner = excluded.owner, claimed_at = excluded.claimed_at,
             lease_until = excluded.lease_until, completed_at = NULL, response = NULL
         WHERE (fin_idempotency_keys.completed_at IS NULL AND fin_idempotency_keys.lease_until <= $5)
            OR fin_idempotency_keys.completed_at <= $7
       RETURNING 1`,
      [claim.clientId, claim.key, claim.fingerprint, claim.owner, claim.now, leaseUntil, retiredBefore],
    );
    if (claimed.rowCount === 1) return { outcome: 'claimed' };
    const { rows } = await query<{ fingerprint: string; response: StoredResponse | null }>(
      db,
      'SELECT fingerprint, response FROM fin_idempotency_keys WHERE client_id = $1 AND idem_key = $2',
      [claim.clientId, claim.key],
    );
    const existing = rows[0];
    if (!existing) continue;
    if (existing.fingerprint !== claim.fingerprint) return { outcome: 'conflict' };
    return existing.response
      ? { outcome: 'completed', response: existing.response }
      : { outcome: 'in_progress' };
  }
  return { outcome: 'in_progress' };
}

export async function completeIdempotencyKey(
  db: Queryable,
  ref: IdempotencyKeyRef & { response: StoredResponse; now: Date },
): Promise<void> {
  await query(
    db,
    `UPDATE fin_idempotency_keys SET response = $4, completed_at = $5
     WHERE client_id = $1 AND idem_key = $2 AND owner = $3 AND completed_at IS NULL`,
    [ref.clientId, ref.key, ref.owner, JSON.stringify(ref.response), ref.now],
  );
}

export async function releaseIdempotencyKey(db: Queryable, ref: IdempotencyKeyRef): Promise<void> {
  await query(
    db,
    `DELETE FROM fin_idempotency_keys
     WHERE client_id = $1 AND idem_key = $2 AND owner = $3 AND completed_at IS NULL`,
    [ref.clientId, ref.key, ref.owner],
  );
}
