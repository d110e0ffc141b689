// Housekeeping on PostgreSQL: idempotency keys past 24 h and other stale rows go in batches, and a row in use is skipped, not waited for.
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { usePostgres, withClient } from '../../../../test/support/postgres.js';

const server = usePostgres();
const DAY = 86_400_000;
const NOW = new Date('2026-03-03T12:00:00.000Z');
const response = { status: 200, headers: {}, body: { ok: true } };

async function seeded() {
  const connectionString = await server.createDatabase();
  await migrate({ connectionString });
  const store = postgresStore({ connectionString });
  const db = new pg.Client({ connectionString });
  await db.connect();
  // 1 200 answered keys a day and a minute old (past retention), more than two sweep batches, and a fresh one.
  await db.query(
    `INSERT INTO fin_idempotency_keys (client_id, idem_key, fingerprint, owner, claimed_at, lease_until, completed_at, response)
     SELECT 'partner-a', 'old-' || n, 'fp', 'owner', $1, $1, $1, $2 FROM generate_series(1, 1200) AS n`,
    [new Date(NOW.getTime() - DAY - 60_000), JSON.stringify(response)],
  );
  await store.claimWrite({
    clientId: 'partner-a',
    key: 'fresh',
    owner: 'me',
    fingerprint: 'fp',
    now: NOW,
    retentionMs: DAY,
    leaseMs: 30_000,
  });
  await store.consumeRateLimit({
    key: 'write:partner-a',
    limit: 120,
    windowMs: 60_000,
    // Older than the two windows a limiter row is kept (one counted, one for clocks behind): purged.
    now: new Date(NOW.getTime() - 180_000),
  });
  const keys = async () =>
    (await db.query<{ idem_key: string }>('SELECT idem_key FROM fin_idempotency_keys ORDER BY 1')).rows.map(
      (row) => row.idem_key,
    );
  return { store, db, keys, connectionString };
}

describe('purgeExpired on PostgreSQL', () => {
  it('spec 8: deletes idempotency keys past the 24 h retention, in batches, and keeps the recent ones', async () => {
    const { store, db, keys } = await seeded();
    try {
      await store.purgeExpired({ now: NOW, retentionMs: DAY });
      expect(await keys()).toEqual(['fresh']);
      expect((await db.query('SELECT 1 FROM fin_rate_limits')).rowCount).toBe(0);
    } finally {
      await db.end();
      await store.close();
    }
  });

  it('never waits for a row a request holds: that row is left for the next sweep', async () => {
    const { store, db, keys, connectionString } = await seeded();
    try {
      await withClient(connectionString, async (request) => {
        await request.query('BEGIN');
        await request.query("SELECT 1 FROM fin_idempotency_keys WHERE idem_key = 'old-7' FOR UPDATE");
        await store.purgeExpired({ now: NOW, retentionMs: DAY });
        expect(await keys()).toEqual(['fresh', 'old-7']);
        await request.query('COMMIT');
        await store.purgeExpired({ now: NOW, retentionMs: DAY });
        expect(await keys()).toEqual(['fresh']);
      });
    } finally {
      await db.end();
      await store.close();
    }
  });
});
