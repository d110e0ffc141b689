// DESIGN 16 / issue 12 §5: the write limit holds in any 60 s window, across a minute boundary and across two instances on one PostgreSQL.
import type { Store } from '@fin/server-kit';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';
import { busiestWindow } from '../support/busiest-window.js';
import { type Answer, harness, manualClock } from '../support/harness.js';

const server = usePostgres();
const LIMIT = 120;
const WINDOW = 60_000;
const clock = manualClock(new Date('2026-03-02T12:00:00.000Z'));
let instances: ReturnType<typeof harness>[] = [];
let stores: Store[] = [];

beforeAll(async () => {
  const connectionString = await server.createDatabase();
  await migrate({ connectionString });
  // Two instances, each with its own pool, sharing one database and one (injected) clock.
  stores = [postgresStore({ connectionString }), postgresStore({ connectionString })];
  instances = stores.map((store) => harness({ store }, clock));
});

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

/** When each admitted write was sent (ms), across both instances. */
const admitted: number[] = [];

/** `n` writes at the current instant, alternating instances; an empty body is refused (400/422) once admitted. */
async function burst(n: number): Promise<Answer[]> {
  const at = clock.now().getTime();
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => instances[i % 2]!.authorize({})));
  for (const answer of answers) {
    expect([400, 422, 429]).toContain(answer.status);
    if (answer.status !== 429) admitted.push(at);
  }
  return answers;
}

const limited = (answers: Answer[]) => answers.filter((a) => a.status === 429);

describe('spec 8 write limit as a sliding window shared by two instances on PostgreSQL', () => {
  it('120 at second 59 and a burst at second 0 of the next minute: the second burst is refused until second 59 is 60 s old', async () => {
    clock.set(new Date('2026-03-02T12:00:59.000Z'));
    const first = await burst(LIMIT + 10);
    expect(limited(first)).toHaveLength(10);

    clock.set(new Date('2026-03-02T12:01:00.000Z'));
    const second = await burst(LIMIT);
    expect(limited(second)).toHaveLength(LIMIT);
    // Retry-After: second 59's writes leave the window at 12:02:00, 60 s from now.
    expect(second[0]!.headers.get('retry-after')).toBe('60');

    clock.set(new Date('2026-03-02T12:01:59.999Z'));
    expect(limited(await burst(2))).toHaveLength(2);
    clock.set(new Date('2026-03-02T12:02:00.000Z'));
    expect(limited(await burst(LIMIT + 1))).toHaveLength(1);
    expect(busiestWindow(admitted, WINDOW)).toBe(LIMIT);
  });

  it('bursts of every size at uneven instants for three minutes: no 60 s window ever admits more than 120', async () => {
    const sizes = [7, 40, 3, 90, 25, 60, 1, 120, 33, 15, 80, 5];
    const steps = [4_300, 11_700, 900, 23_100, 7_000, 15_500, 29_900, 2_200, 13_300, 8_800, 19_000, 6_100];
    clock.set(new Date('2026-03-02T12:30:00.000Z'));
    let refused = 0;
    for (let i = 0; i < sizes.length; i++) {
      refused += limited(await burst(sizes[i]!)).length;
      clock.advance(steps[i]!);
    }
    expect(refused).toBeGreaterThan(0);
    expect(busiestWindow(admitted, WINDOW)).toBeLessThanOrEqual(LIMIT);
  });
});
