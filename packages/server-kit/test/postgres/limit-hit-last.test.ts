// Issue 27 §3 / PERF-9: a write locks its partner's limiter row as the last step of its claim, not before the claim and its reads.
import { memoryStore, type Store } from '@fin/server-kit';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';
import { T0 } from '../support/harness.js';

const server = usePostgres();
let connectionString: string;
let store: Store;
const clients: pg.Client[] = [];

beforeAll(async () => {
  connectionString = await server.createDatabase();
  await migrate({ connectionString });
  store = postgresStore({ connectionString });
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  await store.close();
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  clients.push(client);
  await client.connect();
  return client;
}

const HIT = { key: 'write:partner-a', limit: 100, windowMs: 60_000, now: T0 };
const CLAIM = {
  clientId: 'partner-a',
  key: 'key-1',
  owner: 'owner-1',
  fingerprint: 'fp-1',
  now: T0,
  retentionMs: 86_400_000,
  leaseMs: 30_000,
};

/** Until some backend of this database waits for a lock (bounded: 200 polls). */
async function someoneWaits(observer: pg.Client): Promise<void> {
  for (let poll = 0; poll < 200; poll++) {
    const { rows } = await observer.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows[0]!.waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no write ever waited for the limiter row');
}

describe('the rate-limit hit is the last step of the claim (issue 27 §3, PERF-9)', () => {
  it('a write waiting for its partner’s limiter row has already claimed its key: the claim is not what waits', async () => {
    await store.consumeRateLimit(HIT); // the partner's limiter row exists
    const holder = await connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM fin_rate_limits WHERE limit_key = $1 FOR UPDATE', [HIT.key]);
    const write = store.claimWrite({ ...CLAIM, hit: HIT });
    const observer = await connect();
    await someoneWaits(observer);
    // The same key, written by hand: it meets the waiting write's uncommitted claim, so it must wait too.
    await observer.query("SET lock_timeout = '200ms'");
    const rival = observer.query(
      `INSERT INTO fin_idempotency_keys (client_id, idem_key, fingerprint, owner, claimed_at, lease_until)
       VALUES ($1, $2, 'fp-rival', 'rival', $3, $3) ON CONFLICT DO NOTHING`,
      [CLAIM.clientId, CLAIM.key, T0],
    );
    await expect(rival).rejects.toMatchObject({ code: '55P03' });
    await holder.query('ROLLBACK');
    expect(await write).toEqual({ outcome: 'claimed' });
    expect((await store.consumeRateLimit(HIT)).remaining).toBe(97);
  });

  it('a write over the limit claims nothing, and its refusal answers as the memory store’s does', async () => {
    const hit = { key: 'write:partner-b', limit: 2, windowMs: 60_000, now: T0 };
    const claimOf = (key: string) => ({ ...CLAIM, clientId: 'partner-b', key });
    const memory = memoryStore();
    for (const key of ['key-1', 'key-2', 'key-3']) {
      const onPostgres = await store.claimWrite({ ...claimOf(key), hit });
      const inMemory = await memory.claimWrite({ ...claimOf(key), hit });
      expect(onPostgres).toEqual(inMemory);
    }
    const observer = await connect();
    const { rows } = await observer.query<{ key: string }>(
      "SELECT idem_key AS key FROM fin_idempotency_keys WHERE client_id = 'partner-b' ORDER BY idem_key",
    );
    expect(rows.map((row) => row.key)).toEqual(['key-1', 'key-2']);
    // The refused key was never held: once the window has passed, it is claimed afresh.
    const later = { ...hit, now: new Date(T0.getTime() + 61_000) };
    expect(await store.claimWrite({ ...claimOf('key-3'), now: later.now, hit: later })).toEqual({
      outcome: 'claimed',
    });
  });

  it('a schema without migration 8 still answers every write, through the hit and the claim apart, and says so in the log', async () => {
    const behind = await server.createDatabase();
    await migrate({ connectionString: behind });
    const admin = new pg.Client({ connectionString: behind });
    clients.push(admin);
    await admin.connect();
    await admin.query('DROP FUNCTION fin_rate_limit_admit(text, bigint, bigint, integer)');
    const warnings: Record<string, unknown>[] = [];
    const lagging = postgresStore({
      connectionString: behind,
      logger: { warn: (entry: Record<string, unknown>) => warnings.push(entry) },
    });
    try {
      expect(await lagging.claimWrite({ ...CLAIM, hit: HIT })).toEqual({ outcome: 'claimed' });
      expect(warnings).toContainEqual(
        expect.objectContaining({ event: 'postgres.limited_claim_failed', code: '42883' }),
      );
    } finally {
      await lagging.close();
    }
  });
});
