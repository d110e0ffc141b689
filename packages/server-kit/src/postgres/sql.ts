// Querying helpers of the PostgreSQL store: named prepared statements, bigint cents read as safe integers, transactions retried on deadlock, unavailability named.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { asUnavailable } from './unavailable.js';

/** A pool or one checked-out client: both run queries. */
export type Queryable = pg.Pool | pg.PoolClient;

const INT8_OID = 20;
/** `relation "fin_..." does not exist`: the deployer has not run the migrations yet. */
const UNDEFINED_TABLE = '42P01';

/** Cents are `bigint` columns; pg reads them as text so no precision is lost. Ours fit a safe integer or fail. */
function parseSafeInteger(text: string): number {
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value)) {
    throw new RangeError(`@fin/server-kit/postgres: ${text} is not a safe integer`);
  }
  return value;
}

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseSafeInteger
      : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** Pools (and their clients) whose statements go unnamed: `preparedStatements: false`, for poolers that lose them. */
const unnamed = new WeakSet<Queryable>();

/**
 * Sends `db`'s statements unnamed (parsed and planned on every call): a store's pool with
 * `preparedStatements: false` (PgBouncer before 1.21 in transaction mode), or a migration's connection
 * (several commands in one text, which a prepared statement cannot hold) while `on`.
 */
export function sendUnnamed(db: Queryable, on = true): void {
  if (on) unnamed.add(db);
  else unnamed.delete(db);
}

/** Statement texts are few and fixed (built once at load); a name per text, bounded against any surprise. */
const names = new Map<string, string>();
const MAX_NAMES = 500;

/**
 * The statement's name: a digest of its text, so one name is never given two texts (pg prepares each
 * name once per connection, PostgreSQL plans it once and reuses the plan). Undefined past `MAX_NAMES`.
 */
function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) {
    name = `fin_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs one statement. `timeoutMs`: pg's `query_timeout`, a bound on the client's side too (a half-open
 * connection never answers): past it the statement fails and, run on a pool, its connection is discarded.
 */
// biome-ignore lint/suspicious/noExplicitAny: a row's shape is the query's; each caller names it
export async function query<Row extends Record<string, any>>(
  db: Queryable,
  text: string,
  values: unknown[] = [],
  timeoutMs?: number,
): Promise<pg.QueryResult<Row>> {
  try {
    const name = unnamed.has(db) ? undefined : nameOf(text);
    const config: pg.QueryConfig & { query_timeout?: number } = name
      ? { name, text, values, types }
      : { text, values, types };
    if (timeoutMs !== undefined) config.query_timeout = timeoutMs;
    return await db.query<Row>(config);
  } catch (error) {
    if (sqlState(error) === UNDEFINED_TABLE && /"fin_/.test((error as Error).message)) {
      throw new Error(
        `@fin/server-kit/postgres: ${(error as Error).message}; run migrate() or \`fin-server-kit-migrate\` first`,
        { cause: error },
      );
    }
    throw RETRYABLE.has(sqlState(error) ?? '') ? error : asUnavailable(error);
  }
}

/** SQLSTATE codes a transaction may simply run again for. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

export function sqlState(error: unknown): string | undefined {
  return (error as { code?: unknown })?.code as string | undefined;
}

/** The constraint a unique violation (23505) broke, if that is what `error` is. */
export function violatedUniqueIndex(error: unknown): string | undefined {
  return sqlState(error) === '23505' ? (error as { constraint?: string }).constraint : undefined;
}

/** Runs one statement (`work`) again when the database aborted it for a deadlock or a serialization failure. */
export async function retried<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (RETRYABLE.has(sqlState(error) ?? '') && attempt < MAX_ATTEMPTS) continue;
      throw asUnavailable(error);
    }
  }
}

/**
 * Runs `work` in one transaction (READ COMMITTED); a deadlock or serialization failure runs it again.
 * A database that goes away meanwhile rolls it back: nothing of it is committed.
 */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect().catch((error: unknown) => {
      throw asUnavailable(error);
    });
    if (unnamed.has(pool)) unnamed.add(client);
    let broken: Error | undefined;
    // Checked out, a client has no listener of pg's: a connection that drops (restart, killed backend,
    // lost socket) would emit an unhandled 'error' and end the process. Ours marks it broken instead; the
    // statement in flight, or the next one, fails and the transaction ends as 503.
    const onError = (error: Error) => {
      broken = error;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      if (!broken && RETRYABLE.has(sqlState(error) ?? '') && attempt < MAX_ATTEMPTS) continue;
      throw asUnavailable(error);
    } finally {
      // A connection that broke, or whose rollback failed, is in an unknown state: the pool discards it.
      client.off('error', onError);
      client.release(broken);
    }
  }
}
