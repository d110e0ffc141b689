// How the PostgreSQL store and migrate() reach the database: a connection string (we own the pool) or the deployer's pool.
import pg from 'pg';

export type PostgresConnection =
  | {
      /** `postgres://user:password@host:5432/database`; the store creates and closes its own pool. */
      connectionString: string;
      /** Pool size of this instance (default 10): see "Pool sizing" in docs/server-kit.md. */
      max?: number;
    }
  /** A pool the deployer made and closes; the store only borrows connections from it. */
  | { pool: pg.Pool };

export interface OpenedPool {
  pool: pg.Pool;
  /** Ends the pool if we created it; leaves a borrowed one alone. */
  end(): Promise<void>;
}

export function openPool(connection: PostgresConnection, applicationName: string): OpenedPool {
  if ('pool' in connection) return { pool: connection.pool, end: async () => {} };
  if (typeof connection.connectionString !== 'string' || connection.connectionString === '') {
    throw new TypeError('@fin/server-kit/postgres: pass `{ connectionString }` or `{ pool }`');
  }
  const pool = new pg.Pool({
    connectionString: connection.connectionString,
    max: connection.max ?? 10,
    application_name: applicationName,
  });
  // An idle connection that breaks (database restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  let ended: Promise<void> | undefined;
  return { pool, end: () => (ended ??= pool.end()) };
}
