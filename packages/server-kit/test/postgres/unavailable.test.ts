// W-12/W-13 on a real PostgreSQL: each way the database cannot answer in time is a 503 with Retry-After, logged with its reason.
import { createServer } from 'node:net';
import type { Store } from '@fin/server-kit';
import { migrate, type PostgresConnection, postgresStore } from '@fin/server-kit/postgres';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';
import { cart, harness } from '../support/harness.js';

const server = usePostgres();
let connectionString: string;

beforeAll(async () => {
  connectionString = await server.createDatabase();
  await migrate({ connectionString });
});

/** One authorize on a service over `store` while `hold` keeps the database busy (it returns its release). */
async function authorizeWhile(store: Store, hold?: () => Promise<() => Promise<void>>) {
  const h = harness({ store });
  await h.token();
  const release = await hold?.();
  try {
    const answer = await h.authorize(cart());
    return { answer, outage: h.logs.find((e) => e.event === 'store.unavailable') };
  } finally {
    await release?.();
    await store.close();
  }
}

const lockAuthorizations = async () => {
  const db = new pg.Client({ connectionString });
  await db.connect();
  await db.query('BEGIN');
  await db.query('LOCK TABLE fin_authorizations IN ACCESS EXCLUSIVE MODE');
  return () => db.end();
};

function expectUnavailable(result: Awaited<ReturnType<typeof authorizeWhile>>, reason: string | RegExp) {
  expect(result.answer.status).toBe(503);
  expect(result.answer.body.error.code).toBe('service_unavailable');
  expect(result.answer.headers.get('retry-after')).toBe('1');
  expect(result.outage).toMatchObject({ reason });
}

const store = (options: Partial<Extract<PostgresConnection, { connectionString: string }>>) =>
  postgresStore({ connectionString, ...options });

describe('W-12/W-13: the database not answering in time is 503 service_unavailable', () => {
  it('a lock held past lock_timeout (55P03)', async () => {
    const result = await authorizeWhile(
      store({ lockTimeoutMs: 200, statementTimeoutMs: 10_000 }),
      lockAuthorizations,
    );
    expectUnavailable(result, '55P03');
  });

  it('a statement running past statement_timeout (57014)', async () => {
    const result = await authorizeWhile(
      store({ lockTimeoutMs: 10_000, statementTimeoutMs: 200 }),
      lockAuthorizations,
    );
    expectUnavailable(result, '57014');
  });

  it('no pooled connection within the acquisition timeout', async () => {
    const pool = new pg.Pool({ connectionString, max: 1, connectionTimeoutMillis: 200 });
    const takeTheOnlyConnection = async () => {
      const taken = await pool.connect();
      return async () => taken.release();
    };
    const result = await authorizeWhile(postgresStore({ pool }), takeTheOnlyConnection);
    await pool.end();
    expectUnavailable(result, 'pool_timeout');
  });

  it('connection refused (nothing listens on the port)', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const h = harness({
      store: postgresStore({ connectionString: `postgres://postgres@127.0.0.1:${port}/x` }),
    });
    const answer = await h.tokenRequest({
      grant_type: 'client_credentials',
      client_id: 'partner-a',
      client_secret: 'secret-a',
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(h.logs.find((e) => e.event === 'store.unavailable')).toMatchObject({ reason: 'ECONNREFUSED' });
  });
});
