// DESIGN 20 / SF-1: a claim held by a dead instance frees after 4 s of silence; a live holder's heartbeat keeps it, on the injected clock; a claim that failed holds nothing.
import type { Store } from '@fin/server-kit';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { usePostgres, withClient } from '../../../../test/support/postgres.js';
import { manualClock, T0 } from '../support/harness.js';

const server = usePostgres();
let connectionString: string;

beforeAll(async () => {
  connectionString = await server.createDatabase();
  await migrate({ connectionString });
});

const open: Store[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});

/** Two instances on one database and one liveness clock (as two processes reading one time). */
function instances(preparedStatements: boolean) {
  const clock = manualClock(T0);
  const make = () => {
    const store = postgresStore({ connectionString, clock, preparedStatements });
    open.push(store);
    return store;
  };
  return { clock, a: make(), b: make() };
}

/** Long enough for a few of the holder's 1 s beats, on the real timer. */
const NEXT_BEATS = { timeout: 5_000, interval: 100 };

let keys = 0;
/** A claim with the service's default 30 s lease, all made at T0 on the request clock: only liveness differs. */
const claimOf = (key: string, owner: string) => ({
  clientId: 'partner-a',
  key,
  owner,
  fingerprint: 'fp-1',
  now: T0,
  retentionMs: 86_400_000,
  leaseMs: 30_000,
});

async function aliveUntil(key: string): Promise<number> {
  return withClient(connectionString, async (db) => {
    const { rows } = await db.query('SELECT alive_until FROM fin_idempotency_keys WHERE idem_key = $1', [
      key,
    ]);
    return (rows[0]!.alive_until as Date).getTime();
  });
}

async function rowsOf(key: string): Promise<number> {
  return withClient(connectionString, async (db) => {
    const { rows } = await db.query(
      'SELECT count(*)::int AS n FROM fin_idempotency_keys WHERE idem_key = $1',
      [key],
    );
    return rows[0]!.n as number;
  });
}

describe.each([true, false])('DESIGN 20: claim liveness (preparedStatements: %s)', (prepared) => {
  it('SF-1: a claim whose holder died (no heartbeat) is still held 3.999 s later and taken over at 4 s, well before its 30 s lease', async () => {
    const { clock, a, b } = instances(prepared);
    const key = `dead-${keys++}`;
    expect((await a.claimWrite(claimOf(key, 'killed'))).outcome).toBe('claimed');
    // The holder's process dies: nothing of it runs any more.
    await a.close();
    open.splice(open.indexOf(a), 1);

    clock.advance(3_999);
    expect((await b.claimWrite(claimOf(key, 'retry'))).outcome).toBe('in_progress');
    clock.advance(1);
    expect((await b.claimWrite(claimOf(key, 'retry'))).outcome).toBe('claimed');
    // The new holder is alive: a third request waits for it.
    expect((await b.claimWrite(claimOf(key, 'third'))).outcome).toBe('in_progress');
  });

  it('SF-1: a slow but live holder is not overtaken: its heartbeat moves the bound with the clock, and its answer is replayed', async () => {
    const { clock, a, b } = instances(prepared);
    const key = `live-${keys++}`;
    expect((await a.claimWrite(claimOf(key, 'slow'))).outcome).toBe('claimed');

    // 20 s pass for a request still running: the holder's next beat renews from the new time.
    clock.advance(20_000);
    await vi.waitFor(async () => expect(await aliveUntil(key)).toBe(T0.getTime() + 24_000), NEXT_BEATS);
    clock.advance(3_999);
    expect((await b.claimWrite(claimOf(key, 'retry'))).outcome).toBe('in_progress');

    const response = { status: 200, headers: {}, body: { ok: true } };
    await a.completeIdempotencyKey({ clientId: 'partner-a', key, owner: 'slow', response, now: T0 });
    expect(
      await b.claimWrite({
        ...claimOf(key, 'retry'),
        hit: { key: `limit-${key}`, now: T0, windowMs: 60_000, limit: 100 },
      }),
    ).toMatchObject({ outcome: 'completed', response });
  });

  it('SF-1: every unfinished claim an instance holds is renewed beat after beat; one completed behind its back is left as it was', async () => {
    const { clock, a } = instances(prepared);
    const [first, second, done] = [`many-${keys++}`, `many-${keys++}`, `many-${keys++}`];
    for (const key of [first, second, done])
      expect((await a.claimWrite(claimOf(key, `holder-${key}`))).outcome).toBe('claimed');
    // Completed by another hand than the holder's store: only the renewal's own check can spare it.
    await withClient(connectionString, (db) =>
      db.query(
        `UPDATE fin_idempotency_keys SET completed_at = now(), response = '{"status":200}' WHERE idem_key = $1`,
        [done],
      ),
    );

    const beats = [
      [20_000, 24_000],
      [1_000, 25_000],
    ] as const;
    for (const [advance, after] of beats) {
      clock.advance(advance);
      await vi.waitFor(async () => {
        expect(await aliveUntil(first)).toBe(T0.getTime() + after);
        expect(await aliveUntil(second)).toBe(T0.getTime() + after);
      }, NEXT_BEATS);
    }
    expect(await aliveUntil(done)).toBe(T0.getTime() + 4_000);
  });

  it('SF-1: a claim whose row another session holds locked is skipped, not waited for: the others are renewed meanwhile, and it is renewed once the lock goes', async () => {
    const { clock, a } = instances(prepared);
    const [locked, free] = [`locked-${keys++}`, `free-${keys++}`];
    for (const key of [locked, free])
      expect((await a.claimWrite(claimOf(key, `holder-${key}`))).outcome).toBe('claimed');

    await withClient(connectionString, async (db) => {
      await db.query('BEGIN');
      await db.query('SELECT 1 FROM fin_idempotency_keys WHERE idem_key = $1 FOR UPDATE', [locked]);
      clock.advance(20_000);
      await vi.waitFor(async () => expect(await aliveUntil(free)).toBe(T0.getTime() + 24_000), NEXT_BEATS);
      expect(await aliveUntil(locked)).toBe(T0.getTime() + 4_000);
      await db.query('COMMIT');
    });
    clock.advance(1_000);
    await vi.waitFor(async () => expect(await aliveUntil(locked)).toBe(T0.getTime() + 25_000), NEXT_BEATS);
  });

  it('SF-1: the lease still bounds a live holder: past 30 s the claim is taken over whatever its heartbeat', async () => {
    const { a, b } = instances(prepared);
    const key = `lease-${keys++}`;
    expect((await a.claimWrite(claimOf(key, 'stuck'))).outcome).toBe('claimed');
    expect(
      (await b.claimWrite({ ...claimOf(key, 'retry'), now: new Date(T0.getTime() + 30_000) })).outcome,
    ).toBe('claimed');
  });

  it('a claim whose reads fail after the key was won (claimed apart, then fin_authorizations locked) throws and holds nothing: the retry claims at once', async () => {
    const { clock, b } = instances(prepared);
    const a = postgresStore({ connectionString, clock, preparedStatements: prepared, lockTimeoutMs: 100 });
    open.push(a);
    const key = `reads-fail-${keys++}`;
    // Without a hit the key is claimed alone and the authorize's reads follow: the lock fails them.
    const reads = { imei: '490154203237518', clientTaxId: '52998224725', storeId: 'store-1' };
    const failed = await withClient(connectionString, async (db) => {
      await db.query('BEGIN');
      await db.query('LOCK TABLE fin_authorizations IN ACCESS EXCLUSIVE MODE');
      const outcome = await a.claimWrite({ ...claimOf(key, 'failed'), reads }).catch((error) => error);
      await db.query('COMMIT');
      return outcome;
    });
    expect(failed).toBeInstanceOf(Error);
    // Released, not left for a heartbeat to keep alive until its 30 s lease: the retry runs at once.
    expect(await rowsOf(key)).toBe(0);
    expect((await b.claimWrite(claimOf(key, 'retry'))).outcome).toBe('claimed');
  });
});
