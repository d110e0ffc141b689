// Issue 37 §5, DESIGN 19-20: behind Debian's PgBouncer 1.18 in transaction mode, every bound of the store still holds (`timeoutsFrom: 'role'`), a role without them is refused, and migrate() says to connect directly.
import { randomUUID } from 'node:crypto';
import type { LogEntry } from '@fin/core';
import { isStoreUnavailable } from '@fin/server-kit';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgBouncer, type TestPgBouncer } from '../../../../test/support/pgbouncer.js';
import { usePostgres, withClient } from '../../../../test/support/postgres.js';

const server = usePostgres(15);
let bouncer: TestPgBouncer;
let database: string;

/** Logins of the test: one with the bounds on its role (the operator's step), one without. */
const BOUNDED = 'fin_bounded';
const UNBOUNDED = 'fin_unbounded';
const TIMEOUTS = { statementTimeoutMs: 1_000, lockTimeoutMs: 300, idleInTransactionTimeoutMs: 5_000 };

const admin = <T>(work: (db: pg.Client) => Promise<T>, url = server.connectionString(database)) =>
  withClient(url, work);

const token = () => ({
  tokenHash: randomUUID(),
  clientId: 'partner-a',
  scopes: ['sales:authorize'],
  environment: 'sandbox',
  issuedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
});

beforeAll(async () => {
  const url = await server.createDatabase();
  database = new URL(url).pathname.slice(1);
  await admin(async (db) => {
    for (const role of [BOUNDED, UNBOUNDED]) {
      await db.query(`CREATE ROLE ${role} LOGIN`).catch(() => undefined);
      await db.query(`GRANT ALL ON SCHEMA public TO ${role}`);
    }
    await db.query(`ALTER ROLE ${BOUNDED} SET statement_timeout = '1s'`);
    await db.query(`ALTER ROLE ${BOUNDED} SET lock_timeout = '300ms'`);
    await db.query(`ALTER ROLE ${BOUNDED} SET idle_in_transaction_session_timeout = '5s'`);
  });
  await migrate({ connectionString: url });
  await admin(async (db) => {
    for (const role of [BOUNDED, UNBOUNDED]) {
      await db.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}`);
      await db.query(`GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
    }
  });
  bouncer = await startPgBouncer(server.port, {
    users: ['postgres', BOUNDED, UNBOUNDED],
    databases: [database],
  });
});
afterAll(async () => {
  await bouncer?.stop();
});

const behindBouncer = (user: string, logs: LogEntry[] = []) =>
  postgresStore({
    connectionString: bouncer.connectionString(database, user),
    timeoutsFrom: 'role',
    preparedStatements: false,
    connectionTimeoutMs: 2_000,
    ...TIMEOUTS,
    logger: { error: (entry) => logs.push(entry) },
  });

describe('issue 37 §5: the bounds of DESIGN 19-20 behind PgBouncer in transaction mode', () => {
  it('PgBouncer 1.18 refuses the timeouts as startup parameters: the default store gets no session there', async () => {
    const store = postgresStore({ connectionString: bouncer.connectionString(database, BOUNDED) });
    try {
      const error = await store.saveToken(token()).catch((e: unknown) => e);
      expect(isStoreUnavailable(error)).toBe(true);
      expect(String((error as Error).cause)).toMatch(/unsupported startup parameter: statement_timeout/);
    } finally {
      await store.close();
    }
  });

  it("timeoutsFrom: 'role': a statement over the role's statement_timeout is cancelled (57014, 503)", async () => {
    await admin((db) =>
      db.query(`CREATE OR REPLACE FUNCTION slow_token() RETURNS trigger LANGUAGE plpgsql AS
                  $$ BEGIN PERFORM pg_sleep(3); RETURN NEW; END $$;
                CREATE TRIGGER slow_token BEFORE INSERT ON fin_tokens FOR EACH ROW EXECUTE FUNCTION slow_token()`),
    );
    const store = behindBouncer(BOUNDED);
    try {
      await store.ping!();
      const error = await store.saveToken(token()).catch((e: unknown) => e);
      expect(isStoreUnavailable(error) && (error as { reason: string }).reason).toBe('57014');
    } finally {
      await store.close();
      await admin((db) => db.query('DROP TRIGGER slow_token ON fin_tokens'));
    }
  });

  it("timeoutsFrom: 'role': a statement waiting on a lock past the role's lock_timeout fails (55P03, 503)", async () => {
    const store = behindBouncer(BOUNDED);
    const holder = new pg.Client({ connectionString: server.connectionString(database) });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE fin_tokens IN ACCESS EXCLUSIVE MODE');
      const error = await store.saveToken(token()).catch((e: unknown) => e);
      expect(isStoreUnavailable(error) && (error as { reason: string }).reason).toBe('55P03');
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
      await store.close();
    }
  });

  it("timeoutsFrom: 'role' on a role without the bounds: not ready (ping rejects), said once at error, never served silently unbounded", async () => {
    const logs: LogEntry[] = [];
    const store = behindBouncer(UNBOUNDED, logs);
    try {
      await expect(store.ping!()).rejects.toThrow(
        /statement_timeout=0 .*lock_timeout=0 .*idle_in_transaction_session_timeout=0/,
      );
      await expect(store.ping!()).rejects.toThrow(/ALTER ROLE/);
      const said = logs.filter((entry) => entry.event === 'postgres.timeouts_not_in_force');
      expect(said).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('migrate() through PgBouncer fails at once and says to connect directly (its lock lives in a session)', async () => {
    await expect(migrate({ connectionString: bouncer.connectionString(database, BOUNDED) })).rejects.toThrow(
      /migrate\(\) must connect to PostgreSQL directly.*unsupported startup parameter: options/,
    );
  });

  it("migrate() on a direct connection is unbounded whatever the role's settings: it waits out another migration's lock", async () => {
    const url = new URL(server.connectionString(database));
    url.username = BOUNDED;
    // Another instance migrating: its advisory lock held past the role's lock_timeout and statement_timeout.
    const other = new pg.Client({ connectionString: server.connectionString(database) });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1, $2)', [0x66696e, 1]);
      const migrating = migrate({ connectionString: url.toString() });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await other.query('SELECT pg_advisory_unlock($1, $2)', [0x66696e, 1]);
      expect(await migrating).toMatchObject({ applied: [] });
    } finally {
      await other.end();
    }
    // The role's own sessions keep their bound: only migrate()'s session is lifted.
    const settings = await admin(
      (db) => db.query("SELECT current_setting('lock_timeout') AS s"),
      url.toString(),
    );
    expect(settings.rows[0].s).toBe('300ms');
  });
});
