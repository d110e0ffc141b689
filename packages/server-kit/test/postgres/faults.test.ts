// Issue 19, exactly once under faults: service processes on one PostgreSQL, faults injected mid-load, every key retried to its one answer.
import { randomUUID } from 'node:crypto';
import type { AuthorizeRequest } from '@fin/core';
import { migrate } from '@fin/server-kit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';
import { cart, deviceImei } from '../support/harness.js';
import { type Instance, post, startInstance, tokenFor } from './support/instances.js';
import { customer, LOAD_STORE, partnerFor } from './support/partners.js';

const server = usePostgres();
/** The service's own role: not a superuser, so a connection limit applies to it. */
const SERVICE_ROLE = 'fin_service';
/** Bounds tight enough that each fault shows within a second or two (defaults: docs/spec-decisions.md). */
const INSTANCE_ENV = {
  FIN_TEST_LIMITS: JSON.stringify({
    writesPerMinute: 1_000_000_000,
    requestDeadlineMs: 2_500,
    idempotencyWaitMs: 2_000,
    idempotencyLeaseMs: 4_000,
  }),
  FIN_TEST_PG_TIMEOUTS: JSON.stringify({
    statementTimeoutMs: 1_500,
    lockTimeoutMs: 500,
    connectionTimeoutMs: 1_000,
  }),
};
/** Concurrent POS lanes, how long each starts new sales, and when the fault strikes. */
const LANES = 6;
const LOAD_MS = 3_000;
const FAULT_AT_MS = 800;
/** A sale not settled within this is a failure of the test (a key stuck for good). */
const SETTLE_MS = 30_000;

let adminUrl: string;
let serviceUrl: string;
let instances: Instance[] = [];
let token: string;
let nextSale = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function admin<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: adminUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  adminUrl = await server.createDatabase();
  const database = new URL(adminUrl).pathname.slice(1);
  await admin(async (db) => {
    await db.query(`CREATE ROLE ${SERVICE_ROLE} LOGIN`).catch(() => undefined);
    await db.query(`ALTER DATABASE ${database} OWNER TO ${SERVICE_ROLE}`);
    await db.query(`GRANT ALL ON SCHEMA public TO ${SERVICE_ROLE}`);
  });
  const url = new URL(adminUrl);
  url.username = SERVICE_ROLE;
  serviceUrl = url.toString();
  await migrate({ connectionString: serviceUrl });
  // One instance with named prepared statements (the default), one without (older poolers): every fault
  // meets both, and the SIGKILLed one's keys are retried on the other.
  instances = await Promise.all(
    (['on', 'off'] as const).map((prepared) =>
      startInstance({ DATABASE_URL: serviceUrl, ...INSTANCE_ENV, FIN_TEST_PREPARED_STATEMENTS: prepared }),
    ),
  );
  token = await tokenFor(instances[0]!, partnerFor('faults'));
}, 60_000);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
});

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON came back
  body: any;
  retryAfter: string | null;
  at: number;
}

interface Sale {
  key: string;
  body: AuthorizeRequest;
  /** Every answer, in order; status 0: no HTTP answer (connection refused or reset). */
  answers: Answer[];
  final?: Answer;
}

/** One attempt, as a POS sends it; a dropped connection is an answer of status 0. */
async function send(instance: Instance, sale: Sale): Promise<Answer> {
  try {
    const answer = await post(instance, '/v1/sales/authorize', sale.body, {
      token,
      idempotencyKey: sale.key,
    });
    return {
      status: answer.status,
      body: answer.body,
      retryAfter: answer.headers.get('retry-after'),
      at: Date.now(),
    };
  } catch {
    return { status: 0, body: null, retryAfter: null, at: Date.now() };
  }
}

/** What the POS does not retry, as the SDK clients: an answer that is not "try again" (5xx, 409 in progress, 429, none). */
const settles = (a: Answer) =>
  a.status !== 0 &&
  a.status < 500 &&
  a.status !== 429 &&
  !(a.status === 409 && a.body?.error?.code === 'idempotency_key_in_progress');

/** A sale retried with its key, on whichever live instance the balancer picks, until it settles. */
async function sell(live: () => Instance[]): Promise<Sale> {
  const n = nextSale++;
  const sale: Sale = {
    key: randomUUID(),
    body: cart({ imei: deviceImei(500_000 + n), storeId: LOAD_STORE, clientTaxId: customer(500_000 + n) }),
    answers: [],
  };
  const giveUp = Date.now() + SETTLE_MS;
  for (let attempt = n; Date.now() < giveUp; attempt++) {
    const pool = live();
    const answer = await send(pool[attempt % pool.length]!, sale);
    sale.answers.push(answer);
    if (settles(answer)) {
      sale.final = answer;
      break;
    }
    await sleep(150);
  }
  return sale;
}

interface Report {
  fault: string;
  sales: number;
  requests: number;
  statuses: Record<number, number>;
  orphans: { rowsWithoutAnswer: number; answersWithoutRow: number };
  recoveryMs: number | undefined;
}

/**
 * Runs LANES lanes of sales for LOAD_MS, strikes `fault` at FAULT_AT_MS (it resolves when the fault is
 * over), lets every sale settle, and checks exactly once: each key's one authorization, in the database
 * once, with its answer stored beside it, replayed to a further retry; never a 500.
 */
async function underFault(name: string, fault: (live: Instance[]) => Promise<void>): Promise<Report> {
  const live = [...instances];
  const started = Date.now();
  let faultOver = Number.POSITIVE_INFINITY;
  const striking = sleep(FAULT_AT_MS).then(async () => {
    await fault(live);
    faultOver = Date.now();
  });
  const lanes = Array.from({ length: LANES }, async () => {
    const sales: Sale[] = [];
    while (Date.now() - started < LOAD_MS) sales.push(await sell(() => live));
    return sales;
  });
  const sales = (await Promise.all(lanes)).flat();
  await striking;

  const answers = sales.flatMap((s) => s.answers);
  const statuses: Record<number, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const firstServed = answers.filter((a) => a.status === 200 && a.at >= faultOver).map((a) => a.at);
  const report: Report = {
    fault: name,
    sales: sales.length,
    requests: answers.length,
    statuses,
    orphans: await orphans(sales),
    recoveryMs: firstServed.length > 0 ? Math.min(...firstServed) - faultOver : undefined,
  };
  console.info(`issue 19 fault: ${JSON.stringify(report)}`);

  // Never a 500: database trouble is a 503 with Retry-After.
  expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
  for (const a of answers.filter((a) => a.status === 503)) {
    expect(a.body.error.code).toBe('service_unavailable');
    expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
  }
  // Every key settles with its own authorization (each sale's IMEI and CPF are its own: nothing else fits).
  expect(sales.filter((s) => s.final?.status !== 200 || s.final.body.data?.authorized !== true)).toEqual([]);
  // ... stored once, under the id that key answered, with its answer beside it.
  const imeis = sales.map((s) => s.body.imei);
  const rows = await admin(
    async (db) =>
      (await db.query('SELECT imei, authorization_id FROM fin_authorizations WHERE imei = ANY($1)', [imeis]))
        .rows,
  );
  expect(rows.length).toBe(sales.length);
  const stored = new Map(rows.map((r) => [r.imei as string, r.authorization_id as string]));
  for (const s of sales) expect(stored.get(s.body.imei)).toBe(s.final!.body.data.authorizationId);
  expect(report.orphans).toEqual({ rowsWithoutAnswer: 0, answersWithoutRow: 0 });
  // A further retry of every key replays its one answer.
  for (const s of sales) {
    const again = await send(live[0]!, s);
    expect([again.status, again.body.data?.authorizationId]).toEqual([
      200,
      s.final!.body.data.authorizationId,
    ]);
  }
  return report;
}

/** Rows of these sales without a stored answer naming them, and stored answers naming no row. */
async function orphans(sales: Sale[]) {
  const imeis = sales.map((s) => s.body.imei);
  const keys = sales.map((s) => s.key);
  return admin(async (db) => {
    const count = async (text: string, values: unknown[]) =>
      Number((await db.query<{ n: string }>(text, values)).rows[0]!.n);
    return {
      rowsWithoutAnswer: await count(
        `SELECT count(*) AS n FROM fin_authorizations a WHERE a.imei = ANY($1) AND NOT EXISTS (
           SELECT 1 FROM fin_idempotency_keys k
           WHERE k.response -> 'body' -> 'data' ->> 'authorizationId' = a.authorization_id)`,
        [imeis],
      ),
      answersWithoutRow: await count(
        `SELECT count(*) AS n FROM fin_idempotency_keys k
         WHERE k.idem_key = ANY($1) AND k.response -> 'body' -> 'data' ->> 'authorizationId' IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM fin_authorizations a
                           WHERE a.authorization_id = k.response -> 'body' -> 'data' ->> 'authorizationId')`,
        [keys],
      ),
    };
  });
}

describe('issue 19: exactly once under faults (two service processes, prepared statements on and off, one PostgreSQL)', () => {
  it('PostgreSQL restarted fast mid-load: every key gets its one authorization, no 500, the service recovers by itself', async () => {
    await underFault('postgres restart -m fast', async () => {
      await server.halt('fast');
      await server.resume();
    });
  });

  it('PostgreSQL restarted immediate (crash and recovery) mid-load: the same', async () => {
    await underFault('postgres restart -m immediate', async () => {
      await server.halt('immediate');
      await server.resume();
    });
  });

  it('PostgreSQL stopped mid-load for 2 s (connections refused), then started: the same', async () => {
    await underFault('postgres stopped 2 s', async () => {
      await server.halt('fast');
      await sleep(2_000);
      await server.resume();
    });
  });

  it('too many connections (the role limited to 2, its sessions terminated) for 2 s: the same', async () => {
    await underFault('too many connections 2 s', async () => {
      await admin(async (db) => {
        await db.query(`ALTER ROLE ${SERVICE_ROLE} CONNECTION LIMIT 2`);
        await db.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [
          SERVICE_ROLE,
        ]);
      });
      await sleep(2_000);
      await admin((db) => db.query(`ALTER ROLE ${SERVICE_ROLE} CONNECTION LIMIT -1`));
    });
  });

  it('a lock on fin_authorizations held 2.5 s, past the lock timeout: 503s meanwhile, then the same', async () => {
    const report = await underFault('table lock held 2.5 s', async () => {
      await admin(async (db) => {
        await db.query('BEGIN');
        await db.query('LOCK TABLE fin_authorizations IN ACCESS EXCLUSIVE MODE');
        await sleep(2_500);
        await db.query('COMMIT');
      });
    });
    // The requests that met the lock were answered when their lock timeout ran out, not when it was released.
    expect(report.statuses[503]).toBeGreaterThan(0);
  });

  it('a service process SIGKILLed mid-load: its keys, retried on the other, get their one authorization', async () => {
    await underFault('service SIGKILL', async (live) => {
      const victim = live.shift()!;
      await victim.kill();
    });
    instances = instances.slice(1);
  });
});
