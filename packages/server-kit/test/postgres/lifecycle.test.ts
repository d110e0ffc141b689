// Issue 37 on PostgreSQL: migration 9 on a populated database (its ACCESS EXCLUSIVE lock time measured and printed), and ended credit records archived by month.

import { migrate, postgresStore } from '@fin/server-kit/postgres';
import { retentionPolicy } from '@fin/server-kit/store';
import { authorizationFixture, proposalFixture } from '@fin/server-kit/testing';
import { describe, expect, it } from 'vitest';
import { usePostgres, withClient } from '../../../../test/support/postgres.js';

const server = usePostgres();
const ROWS = Number(process.env.FIN_LIFECYCLE_ROWS ?? 20_000);

/** Takes a migrated database back to version 8: what a populated production database looks like before this release. */
const UNDO_MIGRATION_9 = `
DROP TABLE fin_authorizations_archive, fin_contracts_archive, fin_proposals_archive;
DROP FUNCTION fin_archive_partitions(timestamptz, timestamptz);
DROP INDEX fin_authorizations_ended, fin_authorizations_proposal, fin_proposals_approved_at,
  fin_webhook_events_delivered, fin_webhook_events_dead;
ALTER TABLE fin_authorizations DROP COLUMN last_event_sequence;
DELETE FROM fin_schema_migrations WHERE version = 9;`;

/** `ROWS` proposals, authorizations (a third confirmed with a contract), two webhook events each. */
const populate = (rows: number) => `
INSERT INTO fin_proposals (proposal_id, client_tax_id, store_id, amount_cents, installments, approved_at, source)
SELECT 'prop_' || n, '52998224725', 'store-1', 250000, 10, now() - interval '40 days', 'MANUAL'
FROM generate_series(1, ${rows}) n;
INSERT INTO fin_authorizations (authorization_id, client_id, status, version, issued_at, expires_at, updated_at,
  client_tax_id, store_id, imei, grand_total_cents, cart, proposal_id, proposal_use)
SELECT 'auth_' || n, 'partner-a', CASE n % 3 WHEN 0 THEN 'CONFIRMED' WHEN 1 THEN 'EXPIRED' ELSE 'CANCELLED' END, 2,
  now() - interval '40 days', now() - interval '40 days' + interval '15 minutes', now() - interval '39 days',
  '52998224725', 'store-1', lpad(n::text, 15, '0'), 250000, '{"items": []}', 'prop_' || n, 0
FROM generate_series(1, ${rows}) n;
INSERT INTO fin_contracts (contract_id, authorization_id, principal_cents, installments, created_at)
SELECT 'ctr_' || n, 'auth_' || n, 250000, '[]', now() - interval '40 days'
FROM generate_series(3, ${rows}, 3) n;
INSERT INTO fin_webhook_events (event_id, type, client_id, authorization_id, sequence, occurred_at, data, status, delivered_at)
SELECT 'evt_' || n || '_' || s, CASE s WHEN 1 THEN 'contract.created' ELSE 'cancellation.verified' END, 'partner-a',
  'auth_' || n, s, now() - interval '39 days', '{}', 'DELIVERED', now() - interval '39 days'
FROM generate_series(1, ${rows}) n, generate_series(1, 2) s;`;

/**
 * Polls `pg_locks` from its own connection until stopped: in how many polls an ACCESS EXCLUSIVE lock on
 * `fin_authorizations` was seen granted, and the mean time between polls (the measure's resolution).
 */
function watchExclusiveLock(connectionString: string) {
  let seen = 0;
  let polls = 0;
  let started = 0;
  let running = true;
  const done = withClient(connectionString, async (db) => {
    started = performance.now();
    while (running) {
      const { rowCount } = await db.query(
        `SELECT 1 FROM pg_locks WHERE locktype = 'relation' AND relation = 'fin_authorizations'::regclass
           AND mode = 'AccessExclusiveLock' AND granted`,
      );
      polls += 1;
      if (rowCount) seen += 1;
    }
  });
  return async () => {
    running = false;
    await done;
    return { seen, polls, intervalMs: (performance.now() - started) / Math.max(1, polls) };
  };
}

/** Writes one live row over and over from its own connection until stopped: the longest a write waited (ms). */
function probeWrites(connectionString: string) {
  let longest = 0;
  let writes = 0;
  let running = true;
  const done = withClient(connectionString, async (db) => {
    while (running) {
      const started = performance.now();
      await db.query(
        `UPDATE fin_authorizations SET updated_at = updated_at WHERE authorization_id = 'auth_3'`,
      );
      longest = Math.max(longest, performance.now() - started);
      writes += 1;
    }
  });
  return async () => {
    running = false;
    await done;
    return { longestWriteMs: longest, writes };
  };
}

describe('issue 37 on PostgreSQL: the record lifecycle', () => {
  it(`DESIGN 27: migration 9 applies to a database of ${ROWS} authorizations with a short ACCESS EXCLUSIVE lock, writes going on`, async () => {
    const connectionString = await server.createDatabase();
    await migrate({ connectionString });
    await withClient(connectionString, async (db) => {
      await db.query(UNDO_MIGRATION_9);
      await db.query(populate(ROWS));
      await db.query('ANALYZE');
      const lock = watchExclusiveLock(connectionString);
      const writes = probeWrites(connectionString);
      const started = performance.now();
      const report = await migrate({ connectionString });
      const migrateMs = performance.now() - started;
      const { seen, polls, intervalMs } = await lock();
      const { longestWriteMs, writes: written } = await writes();
      // The figure the issue asks for (not asserted: timing belongs to bench/, decision LC-1).
      console.info(
        `migration 9 on ${ROWS} authorizations, ${Math.floor(ROWS / 3)} contracts, ${2 * ROWS} events: ` +
          `ACCESS EXCLUSIVE on fin_authorizations seen in ${seen} of ${polls} polls ` +
          `(one every ${intervalMs.toFixed(1)} ms: held under ${((seen + 1) * intervalMs).toFixed(0)} ms); ` +
          `longest concurrent write ${longestWriteMs.toFixed(1)} ms over ${written} writes; migrate() ${migrateMs.toFixed(0)} ms in all`,
      );
      expect(report.applied).toEqual([9]);
      expect(written).toBeGreaterThan(0);
      const { rows } = await db.query<{ n: string; valid: boolean }>(
        `SELECT (SELECT count(*) FROM fin_authorizations) AS n,
                (SELECT bool_and(indisvalid) FROM pg_index WHERE indexrelid IN (
                   'fin_authorizations_ended'::regclass, 'fin_proposals_approved_at'::regclass,
                   'fin_webhook_events_delivered'::regclass)) AS valid`,
      );
      expect(rows[0]).toEqual({ n: String(ROWS), valid: true });
    });
  });

  it('DESIGN 27: cancelled records are archived by month with contract and proposal, a month drops in one statement, and R-10 stays held on live rows', async () => {
    const connectionString = await server.createDatabase();
    await migrate({ connectionString });
    const store = postgresStore({ connectionString });
    const T0 = new Date('2026-03-02T12:00:00.000Z');
    const at = (ms: number) => new Date(T0.getTime() + ms);
    try {
      await withClient(connectionString, async (db) => {
        const proposal = proposalFixture();
        const record = authorizationFixture({ proposalId: proposal.proposalId, imei: '356938035643809' });
        await store.createAuthorization({ authorization: record, newProposal: proposal, now: T0 });
        const confirmed = {
          ...record,
          status: 'CONFIRMED' as const,
          confirmation: {
            saleNumber: 'S-1',
            invoiceNumber: 'NF-1',
            nfeAccessKey: '35260312345678000190550010000000011000000010',
            invoicedAt: at(60_000).toISOString(),
          },
          confirmedAt: at(120_000).toISOString(),
          contract: {
            contractId: 'ctr_archived',
            principal: record.grandTotal,
            installments: [{ number: 1, amount: record.grandTotal, dueDate: '2026-04-02' }],
            createdAt: at(120_000).toISOString(),
          },
          updatedAt: at(120_000).toISOString(),
        };
        await store.updateAuthorization({ record: confirmed, expectedVersion: 1, now: at(120_000) });
        await store.updateAuthorization({
          record: { ...confirmed, status: 'CANCELLED', version: 2, updatedAt: at(180_000).toISOString() },
          expectedVersion: 2,
          now: at(180_000),
        });
        const active = authorizationFixture({ imei: '490154203237518' });
        await store.createAuthorization({ authorization: active, now: T0 });
        await store.updateAuthorization({
          record: { ...active, status: 'CONFIRMED', updatedAt: at(60_000).toISOString() },
          expectedVersion: 1,
          now: at(60_000),
        });

        const retention = retentionPolicy.parse({ cancelledAuthorizationsMs: 3_600_000 });
        const report = await store.purgeExpired({ now: at(4_000_000), retentionMs: 86_400_000, retention });
        expect(report).toMatchObject({ archivedAuthorizations: 1, expiredAuthorizations: 0 });
        const archived = await db.query<{ a: string; c: string; p: string }>(
          `SELECT (SELECT authorization_id FROM fin_authorizations_archive_y2026m03) AS a,
                  (SELECT contract_id FROM fin_contracts_archive_y2026m03) AS c,
                  (SELECT proposal_id FROM fin_proposals_archive_y2026m03) AS p`,
        );
        expect(archived.rows[0]).toEqual({
          a: record.authorizationId,
          c: 'ctr_archived',
          p: proposal.proposalId,
        });
        expect(await store.getAuthorization(record.authorizationId)).toBeUndefined();

        // The month goes in one catalog statement per archive, whatever it holds.
        await db.query(
          'DROP TABLE fin_authorizations_archive_y2026m03, fin_contracts_archive_y2026m03, fin_proposals_archive_y2026m03',
        );
        // R-10 on the live rows: the confirmed device is still held, by the unique index.
        await expect(
          db.query(
            `INSERT INTO fin_authorizations (authorization_id, client_id, status, version, issued_at, expires_at, updated_at,
               client_tax_id, store_id, imei, grand_total_cents, cart, proposal_id, proposal_use)
             VALUES ('auth_dup', 'partner-a', 'AUTHORIZED', 1, now(), now(), now(), '52998224725', 'store-1',
               $1, 1, '{}', 'prop_dup', 0)`,
            [active.imei],
          ),
        ).rejects.toMatchObject({ constraint: 'fin_authorizations_active_imei' });
      });
    } finally {
      await store.close();
    }
  });
});
