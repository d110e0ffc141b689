// Migration 9 (issue 37, DESIGN 27): monthly archives of ended credit records, a per-authorization event counter, and the purge's indexes built online.
import type { Migration } from './migration.js';

/** The archive tables: the live table's columns plus `ended_at` (the authorization's last change), by month. */
const ARCHIVED = ['fin_authorizations', 'fin_contracts', 'fin_proposals'] as const;

/**
 * Live tables keep every unique and partial index that holds DESIGN 12 (R-10, proposal slots, keys);
 * ended records move to `fin_*_archive`, partitioned by month of `ended_at`, so a month is dropped or
 * detached in one statement (decision LC-1). Nothing here rewrites or scans a populated table: the
 * archives are new and empty, the column added to `fin_authorizations` has no default (a catalog change),
 * and it comes last, under a `lock_timeout`, so its ACCESS EXCLUSIVE lock is held only until the commit
 * that follows (measured in test/postgres/lifecycle-migration.test.ts). The purge's indexes are built
 * `CONCURRENTLY`, outside the transaction (`online`), while the service keeps writing.
 *
 * `last_event_sequence` is the highest webhook `sequence` given to the authorization: the purge may delete
 * its delivered events, and the next event still gets the next number. An archive has its live table's
 * columns in the same order, then `ended_at`: a later migration adding a column adds it to both.
 */
export const recordLifecycle: Migration = {
  version: 9,
  name: 'record lifecycle: archives, event counter',
  sql: /* sql */ `
${ARCHIVED.map(
  (table) =>
    `CREATE TABLE IF NOT EXISTS ${table}_archive (LIKE ${table},${
      table === 'fin_authorizations' ? ' last_event_sequence integer,' : ''
    } ended_at timestamptz NOT NULL) PARTITION BY RANGE (ended_at);`,
).join('\n')}
CREATE INDEX IF NOT EXISTS fin_authorizations_archive_id ON fin_authorizations_archive (authorization_id);
CREATE INDEX IF NOT EXISTS fin_authorizations_archive_proposal ON fin_authorizations_archive (proposal_id);
CREATE INDEX IF NOT EXISTS fin_contracts_archive_authorization ON fin_contracts_archive (authorization_id);
CREATE INDEX IF NOT EXISTS fin_proposals_archive_id ON fin_proposals_archive (proposal_id);

-- The month partitions of the three archives from p_from's month to p_to's, made when missing; the
-- transaction-level advisory lock lets two purges run it at once.
CREATE OR REPLACE FUNCTION fin_archive_partitions(p_from timestamptz, p_to timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  m_start timestamptz := date_trunc('month', p_from AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  suffix text;
  t text;
BEGIN
  PERFORM pg_advisory_xact_lock(6711534, 9);
  WHILE m_start <= p_to LOOP
    suffix := to_char(m_start AT TIME ZONE 'UTC', '"y"YYYY"m"MM');
    FOREACH t IN ARRAY ARRAY[${ARCHIVED.map((table) => `'${table}'`).join(', ')}] LOOP
      IF to_regclass(t || '_archive_' || suffix) IS NULL THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
          t || '_archive_' || suffix, t || '_archive', m_start, m_start + interval '1 month');
      END IF;
    END LOOP;
    m_start := m_start + interval '1 month';
  END LOOP;
END
$$;

-- Last: its ACCESS EXCLUSIVE lock lasts from here to the commit. Waiting longer than this for a
-- long transaction to end fails the migration (run it again) rather than queue every write behind it.
SET LOCAL lock_timeout = '5s';
ALTER TABLE fin_authorizations ADD COLUMN IF NOT EXISTS last_event_sequence integer;
`,
  online: [
    {
      index: 'fin_authorizations_ended',
      sql: `CREATE INDEX CONCURRENTLY IF NOT EXISTS fin_authorizations_ended ON fin_authorizations (updated_at)
            WHERE status IN ('CANCELLED', 'EXPIRED')`,
    },
    {
      index: 'fin_authorizations_proposal',
      sql: 'CREATE INDEX CONCURRENTLY IF NOT EXISTS fin_authorizations_proposal ON fin_authorizations (proposal_id)',
    },
    {
      index: 'fin_proposals_approved_at',
      sql: 'CREATE INDEX CONCURRENTLY IF NOT EXISTS fin_proposals_approved_at ON fin_proposals (approved_at)',
    },
    {
      index: 'fin_webhook_events_delivered',
      sql: `CREATE INDEX CONCURRENTLY IF NOT EXISTS fin_webhook_events_delivered ON fin_webhook_events (delivered_at)
            WHERE status = 'DELIVERED'`,
    },
    {
      index: 'fin_webhook_events_dead',
      sql: `CREATE INDEX CONCURRENTLY IF NOT EXISTS fin_webhook_events_dead ON fin_webhook_events (occurred_at)
            WHERE status = 'DEAD'`,
    },
  ],
};
