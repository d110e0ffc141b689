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
    } & PostgresTimeouts)
  /** A pool the deployer made and closes (and bounds: see docs/server-kit.md); the store only borrows from it. */
  | { pool: pg.Pool };

export interface OpenedPool {
  pool: pg.Pool;
  /** Ends the pool if we created it; leaves a borrowed one alone. */
  end(): Promise<void>;
}

/**
 * `bounded: false` (migrations) leaves statements and locks unbounded: a migration may rightly take long,
 * and instances migrating at once wait for each other's advisory lock.
 */
export function openPool(
  connection: PostgresConnection,
  applicationName: string,
  { bounded = true }: { bounded?: boolean } = {},
): OpenedPool {
  if ('pool' in connection) return { pool: connection.pool, end: async () => {} };
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
  const pool = new pg.Pool({
    connectionString: connection.connectionString,
    max: connection.max ?? 10,
    application_name: applicationName,
    ...(bounded
      ? {
          statement_timeout: timeouts.statementTimeoutMs,
          lock_timeout: timeouts.lockTimeoutMs,
          idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
        }
      : {}),
    connectionTimeoutMillis: timeouts.connectionTimeoutMs,
    // A connection idle a minute (pg's default: 10 s) is closed: kept open, its prepared statements stay planned.
    idleTimeoutMillis: IDLE_CONNECTION_MS,
  });
  // An idle connection that breaks (database restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  let ended: Promise<void> | undefined;
  return { pool, end: () => (ended ??= pool.end()) };
}
