// `timeoutsFrom: 'role'`: checks that the sessions the store is given carry the statement, lock and idle-in-transaction bounds the deployer set on its role.
import type { Logger } from '@fin/core';
import type pg from 'pg';
import type { PostgresTimeouts } from './connection.js';
import { query } from './sql.js';

/** Each bound and the PostgreSQL setting that holds it (all three in milliseconds in `pg_settings`). */
const SETTINGS = {
  statementTimeoutMs: 'statement_timeout',
  lockTimeoutMs: 'lock_timeout',
  idleInTransactionTimeoutMs: 'idle_in_transaction_session_timeout',
} as const;

type Bound = keyof typeof SETTINGS;

/** Settings off (0) or looser than `expected`, as `statement_timeout=0 (expected 1..5000 ms)`. */
export function missingBounds(
  inForce: ReadonlyMap<string, number>,
  expected: Required<PostgresTimeouts>,
): string[] {
  return (Object.keys(SETTINGS) as Bound[]).flatMap((bound) => {
    const name = SETTINGS[bound];
    const ms = inForce.get(name) ?? 0;
    return ms > 0 && ms <= expected[bound] ? [] : [`${name}=${ms} (expected 1..${expected[bound]} ms)`];
  });
}

/**
 * The check, run once at start and on every `ping()`: it rejects while a bound is missing, so the
 * instance reports not ready; it logs `postgres.timeouts_not_in_force` at error when it first finds one
 * missing (and again after they were in force), never on every probe.
 */
export function roleTimeoutsCheck(
  pool: pg.Pool,
  expected: Required<PostgresTimeouts>,
  logger: Logger | undefined,
): () => Promise<void> {
  let reported = false;
  return async () => {
    const { rows } = await query<{ name: string; ms: number }>(
      pool,
      'SELECT name, setting::bigint AS ms FROM pg_settings WHERE name = ANY($1)',
      [Object.values(SETTINGS)],
    );
    const missing = missingBounds(new Map(rows.map((row) => [row.name, row.ms])), expected);
    if (missing.length === 0) {
      reported = false;
      return;
    }
    if (!reported) logger?.error?.({ event: 'postgres.timeouts_not_in_force', missing });
    reported = true;
    throw new Error(
      `@fin/server-kit/postgres: timeoutsFrom: 'role', but the role's sessions lack ${missing.join(', ')}; ` +
        'set them with ALTER ROLE ... SET (docs/operations.md, "Behind PgBouncer")',
    );
  };
}
