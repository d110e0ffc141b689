// Idempotency keys in PostgreSQL: the primary key (client, key) is the one claim; a stale row is taken over by an upsert.
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import type { StoredResponse } from '../ports/records.js';
import type {
  AuthorizeFindings,
  IdempotencyKeyRef,
  KeyAnswer,
  WriteClaim,
  WriteClaimResult,
} from '../ports/store.js';
import {
  type AuthorizationRow,
  activeByImeiWhere,
  exchangeNoticesWhere,
  SELECT_AUTHORIZATIONS,
  toAuthorizationRecord,
} from './authorization-rows.js';
import { CLAIM_LIVENESS_MS } from './claim-heartbeat.js';
import { type ProposalRow, toProposal, unusedProposalSql } from './proposals.js';
import {
  type AdmitAnswer,
  admittedOf,
  rateLimitAdmitSql,
  rateLimitHitValues,
  refusalOf,
} from './rate-limits.js';
import { type Queryable, query } from './sql.js';

/** A row that vanished between our two statements (released, or swept) is claimed again; this bounds it. */
const MAX_ROUNDS = 5;

/**
 * `$1..$8`: client, key, fingerprint, owner, now, lease end, retired before (completed at or before), and
 * `holderNow`, the store's own clock, which the claim-liveness column is written and read with.
 */
const claimValues = (claim: WriteClaim, holderNow: Date) => [
  claim.clientId,
  claim.key,
  claim.fingerprint,
  claim.owner,
  claim.now,
  new Date(claim.now.getTime() + claim.leaseMs),
  new Date(claim.now.getTime() - claim.retentionMs),
  holderNow,
];

/**
 * Inserts the claim (`row`: a VALUES list or a SELECT of `$1..$6`, alive until `$8` + CLAIM_LIVENESS_MS),
 * or takes over a row that no longer counts: an unfinished claim whose lease ran out, or whose holder's
 * heartbeat stopped (`alive_until` passed: the instance that held it died); a completed answer older than
 * the retention. Any other existing row is read back and answered as replay, conflict or in progress.
 */
const claimSql = (row: string) =>
  `INSERT INTO fin_idempotency_keys (client_id, idem_key, fingerprint, owner, claimed_at, lease_until, alive_until)
   SELECT *, $8::timestamptz + interval '${CLAIM_LIVENESS_MS} milliseconds' FROM (${row}) AS claim
   ON CONFLICT (client_id, idem_key) DO UPDATE
     SET fingerprint = excluded.fingerprint, owner = excluded.owner, claimed_at = excluded.claimed_at,
         lease_until = excluded.lease_until, alive_until = excluded.alive_until, completed_at = NULL,
         response = NULL
     WHERE (fin_idempotency_keys.completed_at IS NULL
            AND (fin_idempotency_keys.lease_until <= $5 OR fin_idempotency_keys.alive_until <= $8))
        OR fin_idempotency_keys.completed_at <= $7
   RETURNING 1`;

interface ExistingKey {
  fingerprint: string;
  response: StoredResponse | null;
}

/**
 * What a request meets on a key another request holds: conflict, replay, or still running; `undefined`
 * when the row is gone (released, or swept) and the key may be claimed again.
 */
async function existingAnswer(db: Queryable, claim: WriteClaim): Promise<WriteClaimResult | undefined> {
  const { rows } = await query<ExistingKey>(
    db,
    'SELECT fingerprint, response FROM fin_idempotency_keys WHERE client_id = $1 AND idem_key = $2',
    [claim.clientId, claim.key],
  );
  const existing = rows[0];
  if (!existing) return undefined;
  if (existing.fingerprint !== claim.fingerprint) return { outcome: 'conflict' };
  return existing.response
    ? { outcome: 'completed', response: existing.response }
    : { outcome: 'in_progress' };
}

/** The claim alone (no hit to count, no reads): a row another request holds is read back. */
export async function claimKey(db: Queryable, claim: WriteClaim, holderNow: Date): Promise<WriteClaimResult> {
  const values = claimValues(claim, holderNow);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const claimed = await query(
      db,
      claimSql('VALUES ($1::text, $2::text, $3::text, $4::text, $5::timestamptz, $6::timestamptz)'),
      values,
    );
    if (claimed.rowCount === 1) return { outcome: 'claimed' };
    const answer = await existingAnswer(db, claim);
    if (answer) return answer;
  }
  return { outcome: 'in_progress' };
}

/**
 * One statement for a write's claim and its rate-limit hit, the hit last (migration 8): the key is claimed,
 * the `reads` (columns computed from `claimed`) made, and only then is the partner's limiter row locked, so
 * concurrent writes of one partner wait for each other over the hit and the commit alone. A hit over the
 * limit fails the statement (`refusalOf`): its claim is undone, nothing it read is answered. A key another
 * request holds (rare: a retry) is read after.
 *
 * It commits without waiting for the WAL flush (`synchronous_commit` off for this transaction only): the
 * limiter row stays locked until commit, so a flush there would serialise every write of a client behind
 * the disk. Nothing is answered on this commit alone: the write that carries the effect and its answer
 * commits synchronously, and its flush makes this earlier WAL durable too (W-15).
 */
const limitedClaimSql = (reads = '') => `
WITH claimed AS (
  ${claimSql('VALUES ($1::text, $2::text, $3::text, $4::text, $5::timestamptz, $6::timestamptz)')}
), granted AS (
  SELECT EXISTS (SELECT 1 FROM claimed) AS claimed
), commit_mode AS (
  SELECT set_config('synchronous_commit', 'off', true)
)
SELECT granted.claimed${reads},
  ${rateLimitAdmitSql('$9', '$10', '$11', '$12')} AS hit
FROM granted, commit_mode`;

const LIMITED_CLAIM = limitedClaimSql();

/**
 * The same, with an authorize's three first reads as JSON (`$13..$17`: client, CPF, store, IMEI, now),
 * made only when the claim is granted: an authorize's first round trip does all its reading.
 */
const LIMITED_CLAIM_WITH_LOOKUP = limitedClaimSql(`,
  (SELECT row_to_json(r) FROM (${SELECT_AUTHORIZATIONS} ${activeByImeiWhere('$16::text', '$17::timestamptz')} LIMIT 1) r
   WHERE granted.claimed) AS active_by_imei,
  (SELECT row_to_json(r) FROM (${unusedProposalSql('$14::text', '$15::text', '$17::timestamptz')}) r
   WHERE granted.claimed) AS unused_proposal,
  (SELECT coalesce(json_agg(r ORDER BY r.issued_at DESC, r.authorization_id), '[]') FROM (${SELECT_AUTHORIZATIONS} ${exchangeNoticesWhere('$13::text', '$14::text')}) r
   WHERE granted.claimed) AS exchange_notices`);

interface LookupColumns {
  active_by_imei: AuthorizationRow | null;
  unused_proposal: ProposalRow | null;
  exchange_notices: AuthorizationRow[] | null;
}

const readsValues = (claim: WriteClaim) => [
  claim.clientId,
  claim.reads?.clientTaxId,
  claim.reads?.storeId,
  claim.reads?.imei,
  claim.now,
];

/** The reads' columns as records; `undefined` when the statement made none (no `reads`, or not claimed). */
function findingsOf(row: Partial<LookupColumns>): AuthorizeFindings | undefined {
  if (!row.exchange_notices) return undefined;
  return {
    activeByImei: row.active_by_imei ? toAuthorizationRecord(row.active_by_imei) : undefined,
    unusedProposal: row.unused_proposal ? toProposal(row.unused_proposal) : undefined,
    exchangeNotices: row.exchange_notices.map(toAuthorizationRecord),
  };
}

interface ClaimedRow {
  claimed: boolean;
  hit: AdmitAnswer;
}

/** Runs a limited claim statement: its row when the hit was admitted, else the refusal it was undone by. */
async function runLimited<Row extends ClaimedRow>(
  db: Queryable,
  text: string,
  values: unknown[],
): Promise<{ limit: RateLimitDecision; row?: Row }> {
  try {
    const row = (await query<Row>(db, text, values)).rows[0]!;
    return { limit: admittedOf(row.hit), row };
  } catch (error) {
    const refused = refusalOf(error);
    if (refused) return { limit: refused };
    throw error;
  }
}

/**
 * A write's claim with its hit in one statement (and, with `reads`, an authorize's first reads): the hit
 * over the limit claims nothing; a key another request holds is read back after (the claim loop counts no
 * second hit). A claim granted outside the statement (the row vanished meanwhile) carries no `found`.
 */
export async function claimWithinLimit(
  db: Queryable,
  claim: WriteClaim & { hit: RateLimitHit },
  holderNow: Date,
): Promise<WriteClaimResult> {
  const values = [...claimValues(claim, holderNow), ...rateLimitHitValues(claim.hit)];
  const { limit, row } = await runLimited<ClaimedRow & Partial<LookupColumns>>(
    db,
    claim.reads ? LIMITED_CLAIM_WITH_LOOKUP : LIMITED_CLAIM,
    claim.reads ? [...values, ...readsValues(claim)] : values,
  );
  if (!row) return { outcome: 'rate_limited', limit };
  if (!row.claimed) return (await existingAnswer(db, claim)) ?? (await claimKey(db, claim, holderNow));
  const found = findingsOf(row);
  return found ? { outcome: 'claimed', found } : { outcome: 'claimed' };
}

/**
 * Stores a key's answer, only for the owner still holding the unfinished claim, `RETURNING 1`. Its five
 * values (`keyAnswerValues`) start at placeholder `$first`: client, key, owner, response, completed at.
 */
export const completeKeySql = (first: number) => {
  const $ = (i: number) => `$${first + i}`;
  return `UPDATE fin_idempotency_keys SET response = ${$(3)}::jsonb, completed_at = ${$(4)}::timestamptz
   WHERE client_id = ${$(0)}::text AND idem_key = ${$(1)}::text AND owner = ${$(2)}::text
     AND completed_at IS NULL
   RETURNING 1`;
};

/** `completeKeySql`'s values; all null without an answer (the statement then matches nothing). */
export const keyAnswerValues = (answer: KeyAnswer | undefined) =>
  answer
    ? [answer.clientId, answer.key, answer.owner, JSON.stringify(answer.response), answer.now]
    : [null, null, null, null, null];

export async function completeIdempotencyKey(db: Queryable, answer: KeyAnswer): Promise<void> {
  await query(db, completeKeySql(1), keyAnswerValues(answer));
}

export async function releaseIdempotencyKey(db: Queryable, ref: IdempotencyKeyRef): Promise<void> {
  await query(
    db,
    `DELETE FROM fin_idempotency_keys
     WHERE client_id = $1 AND idem_key = $2 AND owner = $3 AND completed_at IS NULL`,
    [ref.clientId, ref.key, ref.owner],
  );
}
