// Issue 37 §5, DESIGN 12, 20, 27: past one database on real parts: two service processes from the packed packages through PgBouncer (transaction mode) to a PostgreSQL 15 primary with a synchronous standby; the primary SIGKILLed under load, the standby promoted, PgBouncer re-pointed.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { AuthorizeRequest } from '@fin/core';
import { migrate } from '@fin/server-kit/postgres';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settles } from '../../packages/server-kit/test/postgres/support/fault-suite.js';
import {
  type Instance,
  packedInstanceEntry,
  post,
  startInstance,
  tokenFor,
} from '../../packages/server-kit/test/postgres/support/instances.js';
import {
  customer,
  LOAD_STORE,
  partnerFor,
} from '../../packages/server-kit/test/postgres/support/partners.js';
import { cart, deviceImei } from '../../packages/server-kit/test/support/harness.js';
import { startPgBouncer, type TestPgBouncer } from '../support/pgbouncer.js';
import { withClient } from '../support/postgres.js';
import { type ReplicatedPostgres, startReplicatedPostgres, waitFor } from '../support/replicated-postgres.js';
import { ensureBuilt, installPackedPackages } from './packed-install.js';

const DATABASE = 'fin';
/** The service's login: not a superuser, its bounds set on the role (the operator's step behind PgBouncer). */
const SERVICE_ROLE = 'fin_service';
const ROLE_BOUNDS = {
  statement_timeout: '1500ms',
  lock_timeout: '500ms',
  idle_in_transaction_session_timeout: '10s',
};
const INSTANCE_ENV = {
  FIN_TEST_LIMITS: JSON.stringify({
    writesPerMinute: 1_000_000_000,
    requestDeadlineMs: 2_500,
    idempotencyWaitMs: 2_000,
  }),
  // The bounds come from the role (PgBouncer 1.18 refuses them as startup parameters); the store checks them.
  FIN_TEST_PG_TIMEOUTS: JSON.stringify({
    timeoutsFrom: 'role',
    statementTimeoutMs: 1_500,
    lockTimeoutMs: 500,
    idleInTransactionTimeoutMs: 10_000,
    connectionTimeoutMs: 1_000,
  }),
  // PgBouncer before 1.21 in transaction mode keeps no prepared statement.
  FIN_TEST_PREPARED_STATEMENTS: 'off' as const,
};
/** Concurrent POS lanes; the load before the kill; how long it goes on after the first sale served after it. */
const LANES = 6;
const LOAD_BEFORE_KILL_MS = 2_000;
const LOAD_AFTER_RECOVERY_MS = 2_000;
/** A sale whose key is not settled this long after it began fails the test (every wait is bounded). */
const SALE_GIVE_UP_MS = 40_000;

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON came back
  body: any;
  retryAfter: string | null;
  sentAt: number;
  at: number;
}

interface Sale {
  key: string;
  body: AuthorizeRequest;
  answers: Answer[];
  final?: Answer;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let folder: string | undefined;
let cluster: ReplicatedPostgres | undefined;
let bouncer: TestPgBouncer | undefined;
let instances: Instance[] = [];

const sql = <T>(port: number, user: string, database: string, work: (db: pg.Client) => Promise<T>) =>
  withClient(cluster!.connectionString(port, database, user), work);

beforeAll(async () => {
  await ensureBuilt();
  folder = await installPackedPackages();
  const entry = await packedInstanceEntry(folder);
  cluster = await startReplicatedPostgres();
  const primary = cluster.primaryPort;
  await sql(primary, 'postgres', 'postgres', async (db) => {
    await db.query(`CREATE ROLE ${SERVICE_ROLE} LOGIN`);
    for (const [name, value] of Object.entries(ROLE_BOUNDS)) {
      await db.query(`ALTER ROLE ${SERVICE_ROLE} SET ${name} = '${value}'`);
    }
    await db.query(`CREATE DATABASE ${DATABASE} OWNER ${SERVICE_ROLE}`);
  });
  // Migrations connect directly (their advisory lock lives in a session), unbounded whatever the role says.
  await migrate({ connectionString: cluster.connectionString(primary, DATABASE, SERVICE_ROLE) });
  bouncer = await startPgBouncer(primary, { users: ['postgres', SERVICE_ROLE], databases: [DATABASE] });
  const viaBouncer = bouncer.connectionString(DATABASE, SERVICE_ROLE);
  instances = await Promise.all(
    [1, 2].map(() => startInstance({ DATABASE_URL: viaBouncer, ...INSTANCE_ENV }, { from: entry })),
  );
}, 600_000);

afterAll(async () => {
  const exited = instances.filter((instance) => instance.process.exitCode !== null);
  await Promise.all(instances.map((instance) => instance.kill()));
  await bouncer?.stop();
  await cluster?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
  // Every instance still ran at the end: none exited on its own (DESIGN 20).
  expect(exited.map((instance) => instance.baseUrl)).toEqual([]);
}, 60_000);

/** Each fin_ table's size (heap, indexes, TOAST) on the server at `port`, in bytes. */
async function tableBytes(port: number): Promise<Record<string, number>> {
  return sql(port, 'postgres', DATABASE, async (db) => {
    const { rows } = await db.query(
      `SELECT relname, pg_total_relation_size(oid)::bigint AS bytes FROM pg_class
       WHERE relkind = 'r' AND relname LIKE 'fin\\_%' ORDER BY 2 DESC`,
    );
    return Object.fromEntries(rows.map((row) => [row.relname, Number(row.bytes)]));
  });
}

/** What each table grew by over the run, in KiB per 1 000 sales (the capacity model's unit). */
function kibPer1000Sales(before: Record<string, number>, after: Record<string, number>, sales: number) {
  return Object.fromEntries(
    Object.entries(after).map(([table, bytes]) => [
      table,
      Math.round(((bytes - (before[table] ?? 0)) / Math.max(1, sales)) * (1000 / 1024)),
    ]),
  );
}

describe('issue 37 §5: primary failover through PgBouncer (transaction mode) to a synchronous standby', () => {
  it('the primary SIGKILLed under load, the standby promoted, PgBouncer re-pointed: no authorization answered 200 is lost, no 500, recovery measured', async () => {
    const token = await tokenFor(instances[0]!, partnerFor('faults'));
    const sales: Sale[] = [];
    let next = 0;
    let stopping = false;

    async function send(instance: Instance, sale: Sale): Promise<Answer> {
      const sentAt = Date.now();
      try {
        const answer = await post(instance, '/v1/sales/authorize', sale.body, {
          token,
          idempotencyKey: sale.key,
        });
        const retryAfter = answer.headers.get('retry-after');
        return { status: answer.status, body: answer.body, retryAfter, sentAt, at: Date.now() };
      } catch {
        return { status: 0, body: null, retryAfter: null, sentAt, at: Date.now() };
      }
    }

    /** One sale, its key retried on either instance (as a POS behind a balancer) until it settles. */
    async function sell(lane: number) {
      const n = next++;
      const sale: Sale = {
        key: randomUUID(),
        body: cart({
          imei: deviceImei(700_000 + n),
          storeId: LOAD_STORE,
          clientTaxId: customer(700_000 + n),
        }),
        answers: [],
      };
      sales.push(sale);
      const giveUp = Date.now() + SALE_GIVE_UP_MS;
      for (let attempt = lane; Date.now() < giveUp; attempt++) {
        const answer = await send(instances[attempt % instances.length]!, sale);
        sale.answers.push(answer);
        if (settles(answer)) {
          sale.final = answer;
          return;
        }
        await sleep(100);
      }
    }

    const sizesBefore = await tableBytes(cluster!.primaryPort);
    const lanes = Array.from({ length: LANES }, async (_, lane) => {
      while (!stopping) await sell(lane);
    });
    const served = (after: number) =>
      sales.flatMap((s) => s.answers).filter((a) => a.status === 200 && a.sentAt >= after);
    const walAt = () =>
      sql(cluster!.primaryPort, 'postgres', DATABASE, async (db) => {
        const { rows } = await db.query('SELECT pg_current_wal_lsn()::text AS lsn');
        return rows[0].lsn as string;
      });
    try {
      // The capacity model's figure (docs/operations.md): WAL per sale served, over the load before the kill.
      const walStart = await walAt();
      const servedBefore = sales.filter((s) => s.final?.status === 200).length;
      await sleep(LOAD_BEFORE_KILL_MS);
      const walEnd = await walAt();
      const servedMeanwhile = sales.filter((s) => s.final?.status === 200).length - servedBefore;
      const killedAt = Date.now();
      cluster!.killPrimary();
      await cluster!.promoteStandby();
      await bouncer!.repoint(cluster!.standbyPort);
      const switchedMs = Date.now() - killedAt;
      await waitFor('a sale served after the kill', 30_000, async () => served(killedAt).length > 0);
      const recoveryMs = Math.min(...served(killedAt).map((a) => a.at)) - killedAt;
      await sleep(LOAD_AFTER_RECOVERY_MS);
      stopping = true;
      await Promise.all(lanes);

      const answers = sales.flatMap((s) => s.answers);
      const statuses: Record<number, number> = {};
      for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      const committed = sales.filter(
        (s) => s.final?.status === 200 && s.final.body.data?.authorized === true,
      );
      const ids = committed.map((s) => s.final!.body.data.authorizationId as string);
      const onNewPrimary = await sql(cluster!.standbyPort, 'postgres', DATABASE, async (db) => {
        const { rows } = await db.query(
          'SELECT authorization_id FROM fin_authorizations WHERE authorization_id = ANY($1)',
          [ids],
        );
        return new Set(rows.map((row) => row.authorization_id as string));
      });
      const lost = ids.filter((id) => !onNewPrimary.has(id));
      const walBytes = await sql(cluster!.standbyPort, 'postgres', DATABASE, async (db) => {
        const { rows } = await db.query('SELECT pg_wal_lsn_diff($1, $2)::bigint AS bytes', [
          walEnd,
          walStart,
        ]);
        return Number(rows[0].bytes);
      });
      const report = {
        sales: sales.length,
        committed: committed.length,
        lost: lost.length,
        requests: answers.length,
        statuses,
        killToRepointMs: switchedMs,
        recoveryMs,
        walBytesPerSale: Math.round(walBytes / Math.max(1, servedMeanwhile)),
        tableKibPer1000Sales: kibPer1000Sales(
          sizesBefore,
          await tableBytes(cluster!.standbyPort),
          committed.length,
        ),
      };
      console.info(
        `issue 37 failover (packed packages, PgBouncer 1.18, PostgreSQL 15): ${JSON.stringify(report)}`,
      );

      // Never a 500 (DESIGN 20): the switch is answered 503 with Retry-After.
      expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
      for (const a of answers.filter((a) => a.status === 503)) {
        expect(a.body?.error?.code).toBe('service_unavailable');
        expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
      }
      // Every sale settled as an authorization, and each one answered 200 is on the new primary.
      expect(sales.filter((s) => !committed.includes(s)).map((s) => s.answers.at(-1))).toEqual([]);
      expect(lost).toEqual([]);
      // Its answer too: a retry of every key, after the switch, replays the answer given before it.
      for (const sale of committed) {
        const again = await send(instances[0]!, sale);
        expect([again.status, again.body?.data]).toEqual([200, sale.final!.body.data]);
      }
    } finally {
      stopping = true;
      await Promise.all(lanes);
    }
  }, 180_000);
});
