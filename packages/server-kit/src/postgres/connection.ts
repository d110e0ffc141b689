// How the PostgreSQL store and migrate() reach the database: a connection string (we own the pool) or the deployer's pool.
import pg from 'pg';

/** Bounds on every wait for the database (defaults in `defaultPostgresTimeouts`, docs/spec-decisions.md). */
export interface PostgresTimeouts {
  /** `statement_timeout` of the store's sessions: a statement running longer is cancelled (57014). */
  statementTimeoutMs?: number;
  /** `lock_timeout`: a statement waiting longer for a lock fails (55P03) instead of queueing behind it. */
  lockTimeoutMs?: number;
  /** How long a request waits for a pooled connection (or a new one to open) before failing. */
  connectionTimeoutMs?: number;
  /** `idle_in_transaction_session_timeout`: a session left inside a transaction is ended by the server. */
  idleInTransactionTimeoutMs?: number;
}

/** Short enough that a request ends within its deadline (8 s), long enough for any statement of ours. */
export const defaultPostgresTimeouts: Required<PostgresTimeouts> = {
  statementTimeoutMs: 5_000,
  lockTimeoutMs: 2_000,
  connectionTimeoutMs: 2_000,
  idleInTransactionTimeoutMs: 10_000,
};

/** How long an idle pooled connection stays open. */
const IDLE_CONNECTION_MS = 60_000;

export type PostgresConnection =
  | ({
      /** `postgres://user:password@host:5432/database`; the store creates and closes its own pool. */
      connectionString: string;
      /** Pool size of this instance (default 10): see "Pool sizing" in docs/server-kit.md. */
      max?: number;
      /**
       * Who puts the statement, lock and idle-in-transaction timeouts on the store's sessions:
       * `'connection'` (default) sends them as startup parameters of each connection; `'role'` sends none
       * (PgBouncer in transaction mode refuses them) and relies on the deployer's
       * `ALTER ROLE ... SET` (docs/operations.md, "Behind PgBouncer"): the store checks at start and on
       * every readiness probe that they are in force, no looser than configured here.
       */
      timeoutsFrom?: 'connection' | 'role';
    } & PostgresTimeouts)
  /** A pool the deployer made and closes (and bounds: see docs/server-kit.md); the store only borrows from it. */
  | { pool: pg.Pool };

export interface OpenedPool {
  pool: pg.Pool;
  /** The bounds in force for this pool's sessions (the defaults where none was given). */
  timeouts: Required<PostgresTimeouts>;
  /** Ends the pool if we created it; leaves a borrowed one alone. */
  end(): Promise<void>;
}

/**
 * Startup parameter of a migration's session: no bound at all, whatever the role's settings say. A
 * pooler refuses it (PgBouncer: "unsupported startup parameter"), which `migrate()` turns into the advice
 * to connect directly.
 */
const UNBOUNDED_SESSION = '-c statement_timeout=0 -c lock_timeout=0 -c idle_in_transaction_session_timeout=0';

/**
 * `bounded: false` (migrations) leaves statements and locks unbounded: a migration may rightly take long,
 * and instances migrating at once wait for each other's advisory lock.
 */
export function openPool(
  connection: PostgresConnection,
  applicationName: string,
  { bounded = true }: { bounded?: boolean } = {},
): OpenedPool {
  if ('pool' in connection)
    return { pool: connection.pool, timeouts: defaultPostgresTimeouts, end: async () => {} };
  if (typeof connection.connectionString !== 'string' || connection.connectionString === '') {
    throw new TypeError('@fin/server-kit/postgres: pass `{ connectionString }` or `{ pool }`');
  }
  const timeouts = { ...defaultPostgresTimeouts };
  for (const name of Object.keys(timeouts) as (keyof PostgresTimeouts)[]) {
    const value = connection[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`@fin/server-kit/postgres: ${name} must be a positive integer of ms`);
    }
    timeouts[name] = value;
  }
  if (![undefined, 'connection', 'role'].includes(connection.timeoutsFrom)) {
    throw new TypeError("@fin/server-kit/postgres: timeoutsFrom must be 'connection' or 'role'");
  }
  const pool = new pg.Pool({
    connectionString: connection.connectionString,
    max: connection.max ?? 10,
    application_name: applicationName,
    ...(!bounded
      ? { options: UNBOUNDED_SESSION }
      : connection.timeoutsFrom === 'role'
        ? {}
        : {
            statement_timeout: timeouts.statementTimeoutMs,
            lock_timeout: timeouts.lockTimeoutMs,
            idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
          }),
    connectionTimeoutMillis: timeouts.connectionTimeoutMs,
    // A connection idle a minute (pg's default: 10 s) is closed: kept open, its prepared statements stay planned.
    idleTimeoutMillis: IDLE_CONNECTION_MS,
  });
  // An idle connection that breaks (database restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  let ended: Promise<void> | undefined;
  return { pool, timeouts, end: () => (ended ??= pool.end()) };
}
