// migrate(): brings a database to this package's schema, one recorded migration at a time, safe to run from many instances at once.
import type { Logger } from '@fin/core';
import { openPool, type PostgresConnection } from './connection.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';
import type { OnlineStep } from './migrations/migration.js';
import { query, sendUnnamed } from './sql.js';

export interface MigrateOptions {
  logger?: Logger;
}

export interface MigrationReport {
  /** Versions applied by this call, in order (empty when the schema was already current). */
  applied: number[];
  /** The schema version of the database afterwards. */
  version: number;
}

// pg_advisory_lock key: two int4 ('fin' and 1) that no other application is likely to take.
const LOCK = [0x66696e, 1];

/** How often a migrator waiting for another's lock asks again. */
const LOCK_POLL_MS = 100;

/**
 * Takes the migration lock, asking again until it is free rather than waiting inside `pg_advisory_lock`: a
 * session blocked in that statement has a transaction open, which the holder's `CREATE INDEX
 * CONCURRENTLY` would wait for (a deadlock); between polls this session has none.
 */
async function takeLock(client: Parameters<typeof query>[0]): Promise<void> {
  for (;;) {
    const { rows } = await query<{ taken: boolean }>(
      client,
      'SELECT pg_try_advisory_lock($1, $2) AS taken',
      LOCK,
    );
    if (rows[0]?.taken) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

/**
 * Applies every migration the database lacks, each in its own transaction, and records it in
 * `fin_schema_migrations`. An advisory lock makes concurrent callers (several instances starting at
 * once) wait for each other (polled: `takeLock`), so each migration runs once. Refuses a database migrated by a newer release.
 */
export async function migrate(
  connection: PostgresConnection,
  options: MigrateOptions = {},
): Promise<MigrationReport> {
  const opened = openPool(connection, 'fin-server-kit-migrate', { bounded: false });
  const client = await opened.pool.connect().catch(async (error: unknown) => {
    await opened.end();
    throw throughPooler(error) ?? error;
  });
  sendUnnamed(client);
  // A connection dropping mid-migration fails the statement in flight; unheard, its 'error' would end the process.
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  try {
    await takeLock(client);
    await assertLockHeld(client);
    try {
      return await applyPending(client, allMigrations, options.logger);
    } finally {
      await query(client, 'SELECT pg_advisory_unlock($1, $2)', LOCK);
    }
  } finally {
    // A borrowed pool's connection goes back as it came.
    sendUnnamed(client, false);
    client.off('error', onError);
    client.release(broken);
    await opened.end();
  }
}

const DIRECTLY =
  'migrate() must connect to PostgreSQL directly (or through a pooler in session mode that passes ' +
  'startup parameters), never through a transaction-mode pooler such as PgBouncer: its advisory lock ' +
  'and its unbounded timeouts live in one session';

/** A pooler's refusal of the session's startup parameter, as the advice to connect directly. */
function throughPooler(error: unknown): Error | undefined {
  const message = (error as Error | undefined)?.message ?? '';
  if (!/unsupported startup parameter/i.test(message)) return undefined;
  return new Error(`@fin/server-kit/postgres: ${DIRECTLY} (the server said: ${message})`, { cause: error });
}

/**
 * Fails unless this session holds the advisory lock: behind a transaction-mode pooler (one configured to
 * ignore our startup parameter) each transaction may run on another server session, one without it.
 */
async function assertLockHeld(client: Parameters<typeof query>[0]): Promise<void> {
  const { rows } = await query<{ held: boolean }>(
    client,
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = $1
       AND objid::bigint = $2 AND objsubid = 2 AND pid = pg_backend_pid() AND granted) AS held`,
    LOCK,
  );
  if (!rows[0]?.held)
    throw new Error(`@fin/server-kit/postgres: this session lost its migration lock; ${DIRECTLY}`);
}

async function applyPending(
  client: Parameters<typeof query>[0],
  migrations: readonly Migration[],
  logger: Logger | undefined,
): Promise<MigrationReport> {
  await query(
    client,
    `CREATE TABLE IF NOT EXISTS fin_schema_migrations (
       version     integer PRIMARY KEY,
       name        text NOT NULL,
       applied_at  timestamptz NOT NULL DEFAULT now()
     )`,
  );
  const { rows } = await query<{ version: number }>(client, 'SELECT version FROM fin_schema_migrations');
  const done = new Set(rows.map((row) => row.version));
  const latest = migrations.at(-1)?.version ?? 0;
  const newer = [...done].filter((version) => version > latest);
  if (newer.length > 0) {
    throw new Error(
      `@fin/server-kit/postgres: the database has schema version ${Math.max(...newer)}, newer than this ` +
        `release knows (${latest}); upgrade @fin/server-kit instead of running an older one against it`,
    );
  }
  const applied: number[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    const record = async () =>
      query(client, 'INSERT INTO fin_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    await query(client, 'BEGIN');
    try {
      await assertLockHeld(client);
      await query(client, migration.sql);
      if (!migration.online) await record();
      await query(client, 'COMMIT');
    } catch (error) {
      await query(client, 'ROLLBACK');
      throw error;
    }
    if (migration.online) {
      await runOnline(client, migration.online);
      await record();
    }
    applied.push(migration.version);
    logger?.info?.({ event: 'postgres.migrated', version: migration.version, name: migration.name });
  }
  return { applied, version: latest };
}

/**
 * Each step outside any transaction (`CREATE INDEX CONCURRENTLY` waits for writers without blocking them);
 * an index left invalid by an interrupted build is dropped first, so `IF NOT EXISTS` builds it again.
 */
async function runOnline(client: Parameters<typeof query>[0], steps: readonly OnlineStep[]): Promise<void> {
  for (const step of steps) {
    const { rows } = await query<{ valid: boolean }>(
      client,
      'SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)',
      [step.index],
    );
    if (rows[0] && !rows[0].valid) await query(client, `DROP INDEX CONCURRENTLY IF EXISTS ${step.index}`);
    await query(client, step.sql);
  }
}
