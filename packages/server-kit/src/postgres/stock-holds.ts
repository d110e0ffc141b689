// Stock holds in PostgreSQL (issue 30): a JSONB record per hold, compare-and-set on version, due holds leased with FOR UPDATE SKIP LOCKED.
import { type HoldRecord, holdRecord } from '../ports/hold-record.js';
import type { HoldStore } from '../ports/hold-store.js';
import type { WorkerLease } from '../ports/worker-lease.js';
import { type Queryable, query } from './sql.js';

const toHold = (row: { record: unknown }) => holdRecord.parse(row.record);

const values = (hold: HoldRecord) => [
  hold.partnerId,
  hold.reservationId,
  hold.proposalId,
  hold.nextCheckAt,
  hold.version,
  JSON.stringify(hold),
];

async function listDueHolds(db: Queryable, now: Date, limit: number, lease?: WorkerLease) {
  const due = `h.next_check_at <= $1`;
  const order = 'h.next_check_at, h.partner_id, h.reservation_id';
  if (!lease) {
    const { rows } = await query<{ record: unknown }>(
      db,
      `SELECT h.record FROM fin_stock_holds h WHERE ${due} ORDER BY ${order} LIMIT ${Number(limit)}`,
      [now],
    );
    return rows.map(toHold);
  }
  const { rows } = await query<{ record: unknown }>(
    db,
    `WITH leased AS (
       UPDATE fin_stock_holds t SET worker_lease_owner = $2, worker_lease_until = $3
       FROM (SELECT h.partner_id, h.reservation_id FROM fin_stock_holds h
             WHERE ${due} AND (h.worker_lease_until IS NULL OR h.worker_lease_until <= $1)
             ORDER BY ${order} LIMIT ${Number(limit)} FOR UPDATE SKIP LOCKED) picked
       WHERE t.partner_id = picked.partner_id AND t.reservation_id = picked.reservation_id
       RETURNING t.record, t.next_check_at, t.partner_id, t.reservation_id)
     SELECT h.record FROM leased h ORDER BY ${order}`,
    [now, lease.owner, lease.until],
  );
  return rows.map(toHold);
}

export function postgresHolds(db: Queryable): HoldStore {
  return {
    async insertHold(hold) {
      const { rowCount } = await query(
        db,
        `INSERT INTO fin_stock_holds (partner_id, reservation_id, proposal_id, next_check_at, version, record)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (partner_id, reservation_id) DO NOTHING`,
        values(hold),
      );
      return rowCount === 1;
    },
    async getHold({ partnerId, reservationId }) {
      const { rows } = await query<{ record: unknown }>(
        db,
        'SELECT record FROM fin_stock_holds WHERE partner_id = $1 AND reservation_id = $2',
        [partnerId, reservationId],
      );
      return rows[0] && toHold(rows[0]);
    },
    async updateHold({ record, expectedVersion }) {
      const next = { ...record, version: expectedVersion + 1 };
      const { rowCount } = await query(
        db,
        `UPDATE fin_stock_holds SET proposal_id = $3, next_check_at = $4, version = $5, record = $6,
           worker_lease_owner = NULL, worker_lease_until = NULL
         WHERE partner_id = $1 AND reservation_id = $2 AND version = $7`,
        [...values(next), expectedVersion],
      );
      return rowCount === 1 ? { ok: true, record: next } : { ok: false, reason: 'stale' };
    },
    listDueHolds: ({ now, limit, lease }) => listDueHolds(db, now, limit, lease),
  };
}
