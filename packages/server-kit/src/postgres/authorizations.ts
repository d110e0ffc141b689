// Authorizations in PostgreSQL: writes whose invariants (R-10, proposal slots, compare-and-set) the database itself enforces.
import type pg from 'pg';
import type { AuthorizationRecord } from '../ports/records.js';
import type {
  CreateAuthorization,
  CreateAuthorizationResult,
  UpdateAuthorization,
  UpdateAuthorizationResult,
} from '../ports/store.js';
import type { WorkerLease } from '../ports/worker-lease.js';
import {
  AUTHORIZATION_COLUMN_TYPES,
  AUTHORIZATION_COLUMNS,
  type AuthorizationRow,
  activeByImeiWhere,
  authorizationValues,
  exchangeNoticesWhere,
  SELECT_AUTHORIZATIONS,
  toAuthorizationRecord,
} from './authorization-rows.js';
import { completeKeySql, keyAnswerValues } from './idempotency-keys.js';
import { PROPOSAL_COLUMNS, proposalValues } from './proposals.js';
import { type Queryable, query, retried, transaction, violatedUniqueIndex } from './sql.js';
import { insertWebhookEvents } from './webhook-event-rows.js';

/** The unique indexes of migration 1 that refuse a write, and what the port calls each refusal. */
const REFUSALS: Record<string, 'imei_already_financed' | 'proposal_use_taken'> = {
  fin_authorizations_active_imei: 'imei_already_financed',
  fin_authorizations_live_proposal_use: 'proposal_use_taken',
};

/** Another writer stored this once-only webhook event first (migration 4): read again, as for a stale version. */
const STALE_INDEXES = new Set(['fin_webhook_events_once', 'fin_webhook_events_sequence']);

/** Thrown inside a transaction to roll it back with a port-level answer. */
class Refused extends Error {
  constructor(readonly reason: 'stale' | 'imei_already_financed' | 'proposal_use_taken' | 'claim_lost') {
    super(reason);
  }
}

/**
 * R-06 as an explicit status change: every OTHER overdue `AUTHORIZED` row of this IMEI or proposal becomes
 * `EXPIRED`, so the partial unique indexes (which cannot read the clock) see it free. Rows are locked
 * in id order, so two writers never wait on each other in a cycle. `$1` is now; `id`, `imei` and
 * `proposal` are the placeholders of the record being written.
 */
const expireOverdueSql = (id: string, imei: string, proposal: string) =>
  `UPDATE fin_authorizations SET status = 'EXPIRED', version = version + 1, updated_at = $1
   WHERE authorization_id IN (
     SELECT authorization_id FROM fin_authorizations
     WHERE status = 'AUTHORIZED' AND expires_at <= $1 AND authorization_id <> ${id}
       AND (imei = ${imei} OR proposal_id = ${proposal})
     ORDER BY authorization_id FOR UPDATE)
   AND status = 'AUTHORIZED'`;

async function expireOverdueNeighbours(client: pg.PoolClient, record: AuthorizationRecord, now: Date) {
  await query(client, expireOverdueSql('$2', '$3', '$4'), [
    now,
    record.authorizationId,
    record.imei,
    record.proposalId,
  ]);
}

/** The contract is written once per authorization (unique `authorization_id`) and never rewritten. */
async function writeContract(client: pg.PoolClient, record: AuthorizationRecord) {
  const { contract } = record;
  const { rows } = await query<{ contract_id: string }>(
    client,
    'SELECT contract_id FROM fin_contracts WHERE authorization_id = $1',
    [record.authorizationId],
  );
  const stored = rows[0]?.contract_id;
  if (stored !== undefined) {
    if (stored !== contract?.contractId) throw new Refused('stale');
    return;
  }
  if (!contract) return;
  await query(
    client,
    `INSERT INTO fin_contracts (contract_id, principal_cents, installments, created_at, authorization_id)
     VALUES ($1, $2, $3, $4, $5)`,
    [...contractValues(contract), record.authorizationId],
  );
}

type Contract = NonNullable<AuthorizationRecord['contract']>;

/** A contract's own columns, in the order both inserts list them: id, principal, installments, created at. */
const contractValues = (contract: Contract) => [
  contract.contractId,
  contract.principal.amount,
  JSON.stringify(contract.installments),
  contract.createdAt,
];

const assignments = AUTHORIZATION_COLUMNS.map((column, i) => `${column} = $${i + 1}`).join(', ');

async function refusable<T>(work: () => Promise<T>): Promise<T | Refused> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refused) return error;
    if (STALE_INDEXES.has(violatedUniqueIndex(error) ?? '')) return new Refused('stale');
    const reason = REFUSALS[violatedUniqueIndex(error) ?? ''];
    if (reason) return new Refused(reason);
    throw error;
  }
}

/**
 * `$1` now, `$2..` the record's columns, then the new proposal's, the contract's and the key answer's
 * values (null when none).
 */
const at = (column: (typeof AUTHORIZATION_COLUMNS)[number]) =>
  `$${AUTHORIZATION_COLUMNS.indexOf(column) + 2}`;
const PROPOSAL_AT = AUTHORIZATION_COLUMNS.length + 2;
const CONTRACT_AT = PROPOSAL_AT + PROPOSAL_COLUMNS.length;
const ANSWER_AT = CONTRACT_AT + 4;
/** Typed placeholders: an INSERT ... SELECT does not type its values from the target columns. */
const param = (n: number, type: string) => `$${n}::${type}`;

/**
 * The whole write of a new authorization in ONE statement (one round trip, atomic like a transaction):
 * the key's answer (only while its owner still holds the claim, else nothing below is written), the
 * expiry of overdue neighbours, the proposal approved during this request, the row, and its contract if
 * it has one. The row is inserted from a read of `expired`, so the expiry runs first and the partial
 * unique indexes (R-10, proposal slots) judge the insert against the rows it expired; a refusal aborts
 * the whole statement, answer included.
 */
const CREATE_AUTHORIZATION = `
WITH answered AS (
  ${completeKeySql(ANSWER_AT)}
), held AS (
  SELECT ${param(ANSWER_AT, 'text')} IS NULL OR EXISTS (SELECT 1 FROM answered) AS ok
), expired AS (
  ${expireOverdueSql(at('authorization_id'), at('imei'), at('proposal_id'))}
  RETURNING 1
), proposal AS (
  INSERT INTO fin_proposals (${PROPOSAL_COLUMNS.map(([column]) => column).join(', ')})
  SELECT ${PROPOSAL_COLUMNS.map(([, type], i) => param(PROPOSAL_AT + i, type)).join(', ')}
  FROM held WHERE held.ok AND ${param(PROPOSAL_AT, 'text')} IS NOT NULL
  ON CONFLICT (proposal_id) DO NOTHING
), inserted AS (
  INSERT INTO fin_authorizations (${AUTHORIZATION_COLUMNS.join(', ')})
  SELECT ${AUTHORIZATION_COLUMNS.map((column, i) => param(i + 2, AUTHORIZATION_COLUMN_TYPES[column])).join(', ')}
  FROM (SELECT count(*) FROM expired) AS expiry_done, held WHERE held.ok
  RETURNING authorization_id
), contract AS (
  INSERT INTO fin_contracts (contract_id, authorization_id, principal_cents, installments, created_at)
  SELECT ${param(CONTRACT_AT, 'text')}, authorization_id, ${param(CONTRACT_AT + 1, 'bigint')},
         ${param(CONTRACT_AT + 2, 'jsonb')}, ${param(CONTRACT_AT + 3, 'timestamptz')}
  FROM inserted WHERE ${param(CONTRACT_AT, 'text')} IS NOT NULL
)
SELECT ok AS held FROM held`;

export async function createAuthorization(
  pool: pg.Pool,
  { authorization, newProposal, answer, now }: CreateAuthorization,
): Promise<CreateAuthorizationResult> {
  const { contract } = authorization;
  const values = [
    now,
    ...authorizationValues(authorization, 1),
    ...(newProposal ? proposalValues(newProposal) : PROPOSAL_COLUMNS.map(() => null)),
    ...(contract ? contractValues(contract) : [null, null, null, null]),
    ...keyAnswerValues(answer),
  ];
  const result = await refusable(() =>
    retried(() => query<{ held: boolean }>(pool, CREATE_AUTHORIZATION, values)),
  );
  if (result instanceof Refused) {
    return { ok: false, reason: result.reason as 'imei_already_financed' | 'proposal_use_taken' };
  }
  return result.rows[0]?.held ? { ok: true } : { ok: false, reason: 'claim_lost' };
}

/** Compare-and-set: the row is written only if its version is still `expectedVersion`. */
export async function updateAuthorization(
  pool: pg.Pool,
  { record, expectedVersion, answer, now, events }: UpdateAuthorization,
): Promise<UpdateAuthorizationResult> {
  const version = expectedVersion + 1;
  const result = await refusable(() =>
    transaction(pool, async (client) => {
      if (answer) {
        const answered = await query(client, completeKeySql(1), keyAnswerValues(answer));
        if (answered.rowCount !== 1) throw new Refused('claim_lost');
      }
      await expireOverdueNeighbours(client, record, now);
      const values = authorizationValues(record, version);
      const written = await query(
        client,
        `UPDATE fin_authorizations SET ${assignments}
         WHERE authorization_id = $1 AND version = $${values.length + 1}`,
        [...values, expectedVersion],
      );
      if (written.rowCount !== 1) throw new Refused('stale');
      await writeContract(client, record);
      await insertWebhookEvents(client, events);
    }),
  );
  if (result instanceof Refused) return { ok: false, reason: result.reason };
  return { ok: true, record: { ...structuredClone(record), version } };
}

async function select(db: Queryable, where: string, values: unknown[]): Promise<AuthorizationRecord[]> {
  const { rows } = await query<AuthorizationRow>(db, `${SELECT_AUTHORIZATIONS} ${where}`, values);
  return rows.map(toAuthorizationRecord);
}

export async function getAuthorization(db: Queryable, authorizationId: string) {
  return (await select(db, 'WHERE a.authorization_id = $1', [authorizationId]))[0];
}

export async function findActiveByImei(db: Queryable, imei: string, now: Date) {
  return (await select(db, activeByImeiWhere('$1', '$2'), [imei, now]))[0];
}

export function findExchangeNotices(db: Queryable, clientId: string, clientTaxId: string) {
  return select(db, exchangeNoticesWhere('$1', '$2'), [clientId, clientTaxId]);
}

export function listProposalUses(db: Queryable, proposalId: string) {
  return select(db, 'WHERE a.proposal_id = $1 ORDER BY a.proposal_use, a.issued_at', [proposalId]);
}

/**
 * Selects the rows `where` picks, in `order`, at most `limit`. With a lease, only rows no unexpired lease
 * holds; they are locked with SKIP LOCKED (a row another instance is leasing right now is passed over,
 * not waited for) and stamped with the lease in the same statement.
 */
export async function selectLeased(
  db: Queryable,
  where: string,
  order: string,
  values: unknown[],
  limit: number,
  lease: WorkerLease | undefined,
): Promise<AuthorizationRecord[]> {
  if (!lease) return select(db, `WHERE ${where} ORDER BY ${order} LIMIT ${Number(limit)}`, values);
  const n = values.length;
  const { rows } = await query<AuthorizationRow>(
    db,
    `WITH leased AS (
       UPDATE fin_authorizations SET worker_lease_owner = $${n + 1}, worker_lease_until = $${n + 3}
       WHERE authorization_id IN (
         SELECT a.authorization_id FROM fin_authorizations a
         WHERE ${where} AND (a.worker_lease_until IS NULL OR a.worker_lease_until <= $${n + 2})
         ORDER BY ${order} LIMIT ${Number(limit)} FOR UPDATE SKIP LOCKED)
       RETURNING authorization_id)
     ${SELECT_AUTHORIZATIONS} JOIN leased ON leased.authorization_id = a.authorization_id
     ORDER BY ${order}`,
    [...values, lease.owner, lease.now, lease.until],
  );
  return rows.map(toAuthorizationRecord);
}

export function listPendingCancellations(db: Queryable, now: Date, limit: number, lease?: WorkerLease) {
  return selectLeased(
    db,
    `a.cancellation_verification = 'PENDING'
     AND a.cancellation_next_attempt_at <= $1`,
    'a.cancellation_noticed_at, a.authorization_id',
    [now],
    limit,
    lease,
  );
}

export function listUnconfirmed(db: Queryable, issuedAfter: Date, limit: number, lease?: WorkerLease) {
  return selectLeased(
    db,
    `a.status IN ('AUTHORIZED', 'EXPIRED') AND a.sale_number IS NULL
     AND a.cancellation_reason IS NULL AND a.issued_at >= $1`,
    'a.issued_at, a.authorization_id',
    [issuedAfter],
    limit,
    lease,
  );
}
