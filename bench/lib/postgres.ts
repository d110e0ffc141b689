// A throwaway PostgreSQL on loopback for the bench (the test harness, test/support/postgres.ts), durable, with pg_stat_statements loaded.
import { migrate } from '@fin/server-kit/postgres';
import pg from 'pg';
import { startPostgres } from '../../test/support/postgres.js';

/**
 * pg_stat_statements counts every top-level statement a database receives (node-postgres sends one at a
 * time, so one statement is one round trip) with its planning and execution time.
 */
const STATEMENT_STATS = [
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track_planning=on',
  'pg_stat_statements.track=top',
];

/**
 * Durable, as production runs (the test harness turns fsync off): every commit waits for its WAL flush, the
 * real floor of a write, for ours and the raw baseline alike. Given after the harness's own, so they win.
 */
const DURABLE = ['fsync=on', 'full_page_writes=on', 'synchronous_commit=on'];

/** What one database received between `reset` and `read`. */
export interface StatementTotals {
  /** Top-level statements executed (BEGIN and COMMIT included). */
  calls: number;
  /** How many of them were planned (a named prepared statement with a cached plan is not). */
  plans: number;
  planMicros: number;
  execMicros: number;
}

export interface BenchPostgres {
  /** A fresh database migrated to the store's schema; returns its connection string. */
  createDatabase(): Promise<string>;
  /** Forgets the statistics of the database at `url`. */
  resetStatements(url: string): Promise<void>;
  /**
   * Refreshes the planner's statistics of the database at `url`, as autovacuum keeps a production
   * database's (PERF-6): a bench database grows from empty to thousands of rows in the seconds of a
   * warm-up, faster than autovacuum's one-minute round, and a plan made on an empty table's figures
   * scans every active authorization to expire overdue ones (1-2 ms per write at 3 000 rows).
   */
  analyze(url: string): Promise<void>;
  readStatements(url: string): Promise<StatementTotals>;
}

const databaseOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/** Starts a server, hands it to `use`, then stops it. */
export async function withPostgres<T>(use: (postgres: BenchPostgres) => Promise<T>): Promise<T> {
  const server = await startPostgres([...DURABLE, ...STATEMENT_STATS]);
  const admin = new pg.Client({ connectionString: server.connectionString() });
  const samplers = new Map<string, () => Promise<void>>();
  try {
    await admin.connect();
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const oid = async (url: string) =>
      (
        await admin.query<{ oid: number }>('SELECT oid FROM pg_database WHERE datname = $1', [
          databaseOf(url),
        ])
      ).rows[0]!.oid;
    return await use({
      async createDatabase() {
        const connectionString = await server.createDatabase();
        await migrate({ connectionString });
        return connectionString;
      },
      async resetStatements(url) {
        await admin.query('SELECT pg_stat_statements_reset(0, $1, 0)', [await oid(url)]);
        if (process.env.FIN_BENCH_WAITS)
          samplers.set(url, sampleWaits(server.connectionString(), databaseOf(url)));
      },
      async analyze(url) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query('ANALYZE');
        } finally {
          await client.end();
        }
      },
      async readStatements(url) {
        const { rows } = await admin.query<Record<keyof StatementTotals, number>>(
          `SELECT coalesce(sum(calls), 0)::float8 AS calls, coalesce(sum(plans), 0)::float8 AS plans,
                  coalesce(sum(total_plan_time), 0) * 1000 AS "planMicros",
                  coalesce(sum(total_exec_time), 0) * 1000 AS "execMicros"
           FROM pg_stat_statements WHERE dbid = $1 AND toplevel`,
          [await oid(url)],
        );
        if (process.env.FIN_BENCH_STATEMENTS) await printStatements(admin, await oid(url));
        await samplers.get(url)?.();
        samplers.delete(url);
        return rows[0]!;
      },
    });
  } finally {
    // A race that failed between reset and read leaves its sampler running: stop it before the server.
    for (const stop of samplers.values()) await stop().catch(() => undefined);
    await admin.end().catch(() => undefined);
    await server.stop();
  }
}

/**
 * FIN_BENCH_STATEMENTS=1: each statement's share of what `readStatements` sums (calls, mean execution,
 * planning and WAL bytes), to stderr, so a figure's execution time can be traced to the statement that spends it.
 */
async function printStatements(admin: pg.Client, dbid: number): Promise<void> {
  const { rows } = await admin.query<{
    calls: number;
    exec: number;
    plan: number;
    wal: number;
    text: string;
  }>(
    `SELECT calls::float8 AS calls, total_exec_time * 1000 / calls AS exec, wal_bytes::float8 / calls AS wal,
            total_plan_time * 1000 / calls AS plan, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS text
     FROM pg_stat_statements WHERE dbid = $1 AND toplevel AND calls > 0 ORDER BY total_exec_time DESC LIMIT 8`,
    [dbid],
  );
  for (const row of rows) {
    process.stderr.write(
      `  ${String(row.calls).padStart(7)} calls ${row.exec.toFixed(0).padStart(6)} µs exec ${row.plan.toFixed(0).padStart(4)} µs plan ${row.wal.toFixed(0).padStart(6)} B WAL  ${row.text}\n`,
    );
  }
}

/**
 * FIN_BENCH_WAITS=1: what the database's busy backends were doing, sampled from `pg_stat_activity` every
 * 10 ms between `resetStatements` and `readStatements` (the measured rounds), printed to stderr as each wait
 * event's share of the samples with the statement it was met in; `CPU` is a backend running. PostgreSQL keeps
 * no cumulative lock-wait time, so a sample is how a wait for a row lock (`Lock:tuple`,
 * `Lock:transactionid`) can be seen at all. The polling costs both sides of a race alike.
 */
function sampleWaits(serverUrl: string, database: string): () => Promise<void> {
  const sampler = new pg.Client({ connectionString: serverUrl });
  const counts = new Map<string, number>();
  let sampling = true;
  let samples = 0;
  const done = (async () => {
    try {
      await sampler.connect();
      while (sampling) {
        const { rows } = await sampler.query<{ what: string }>(
          `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') || '  ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 40) AS what
           FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND pid <> pg_backend_pid()`,
          [database],
        );
        for (const { what } of rows) counts.set(what, (counts.get(what) ?? 0) + 1);
        samples += rows.length;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    } finally {
      await sampler.end().catch(() => undefined);
    }
  })();
  // A sampler that fails (its server stopped under it) reports when stopped, never as an unhandled rejection.
  done.catch(() => undefined);
  return async () => {
    sampling = false;
    await done;
    if (samples === 0) process.stderr.write('  no busy backend sampled\n');
    for (const [what, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 8)) {
      process.stderr.write(
        `  ${((100 * n) / samples).toFixed(1).padStart(5)}% of ${samples} busy-backend samples  ${what}\n`,
      );
    }
  };
}

/** One fresh migrated database on its own server (the soak). */
export const withDatabase = <T>(use: (connectionString: string) => Promise<T>): Promise<T> =>
  withPostgres(async (postgres) => use(await postgres.createDatabase()));
