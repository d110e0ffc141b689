// DESIGN 20 on a real PostgreSQL: a connection that dies under a transaction (confirm, cancel) is a 503 with Retry-After, never a crashed process.
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';
import { tcpCutter } from '../../../../test/support/tcp-cutter.js';
import { cart, confirmation, deviceImei, harness, T0 } from '../support/harness.js';

const server = usePostgres();
let connectionString: string;

beforeAll(async () => {
  connectionString = await server.createDatabase();
  await migrate({ connectionString });
});

const admins: pg.Client[] = [];
afterEach(async () => {
  await Promise.all(admins.splice(0).map((db) => db.end().catch(() => undefined)));
});

async function adminClient() {
  const db = new pg.Client({ connectionString });
  await db.connect();
  admins.push(db);
  return db;
}

/** Resolves once a backend of the store waits for a lock (its transaction is under way), or terminates them. */
async function waitingBackends(db: pg.Client, terminate: boolean) {
  await vi.waitFor(
    async () => {
      const { rows } = await db.query(
        `SELECT ${terminate ? 'pg_terminate_backend(pid)' : 'pid'} FROM pg_stat_activity
         WHERE application_name = 'fin-server-kit' AND wait_event_type = 'Lock'`,
      );
      expect(rows.length).toBeGreaterThan(0);
    },
    { timeout: 10_000, interval: 20 },
  );
}

const faults = {
  /** pg_terminate_backend: the server says FATAL 57P01, then closes. */
  'backend terminated': async (db: pg.Client) => waitingBackends(db, true),
  /** The socket dies without a word from the server (a network drop, a pooler restart). */
  'socket lost': async (db: pg.Client, cut: () => void) => {
    await waitingBackends(db, false);
    cut();
  },
};

type Write = (h: ReturnType<typeof harness>, id: string) => Promise<{ status: number }>;
const writes: [string, Write][] = [
  ['confirm', (h, id) => h.confirm(id, confirmation(T0))],
  ['cancel', (h, id) => h.cancel(id, { reason: 'CUSTOMER_REQUEST' })],
];
const cases = writes.flatMap(([name, write]) =>
  (Object.keys(faults) as (keyof typeof faults)[]).map((fault) => [name, fault, write] as const),
);

let imeis = 70;

describe('DESIGN 20: a connection lost in the middle of a transaction', () => {
  it.each(cases)(
    'a %s whose connection is lost mid-transaction (%s) answers 503 + Retry-After, the process lives, the retry succeeds',
    async (_name, fault, write) => {
      const relay = await tcpCutter(server.port);
      const url = new URL(connectionString);
      url.port = String(relay.port);
      const store = postgresStore({
        connectionString: url.toString(),
        lockTimeoutMs: 10_000,
        statementTimeoutMs: 10_000,
      });
      const h = harness({ store });
      try {
        const authorized = await h.authorize(cart({ imei: deviceImei(imeis++) }));
        expect(authorized.status).toBe(200);
        const id = authorized.body.data.authorizationId as string;

        // Reads pass this row lock; the transaction's UPDATE of the row waits behind it, then its connection goes.
        const locker = await adminClient();
        await locker.query('BEGIN');
        await locker.query('SELECT 1 FROM fin_authorizations WHERE authorization_id = $1 FOR UPDATE', [id]);
        const answering = write(h, id);
        await faults[fault](await adminClient(), () => relay.cut());
        const answer = (await answering) as Awaited<ReturnType<typeof h.confirm>>;
        await locker.query('COMMIT');

        expect(answer.status).toBe(503);
        expect(answer.body.error.code).toBe('service_unavailable');
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(h.logs.find((e) => e.event === 'store.unavailable')).toBeDefined();
        // The service recovered by itself: the same write, retried, goes through on a fresh connection.
        expect((await write(h, id)).status).toBe(200);
      } finally {
        await store.close();
        await relay.close();
      }
    },
  );
});
