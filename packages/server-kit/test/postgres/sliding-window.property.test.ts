// Spec 8 / DESIGN 16 / issue 27 §3: the PostgreSQL limiter answers every hit as the memory store does, clocks going back included.
import { memoryStore, type Store } from '@fin/server-kit';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../../../../test/support/postgres.js';
import { busiestWindow } from '../support/busiest-window.js';

const server = usePostgres();
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
let store: Store;
let run = 0;

beforeAll(async () => {
  const connectionString = await server.createDatabase();
  await migrate({ connectionString });
  store = postgresStore({ connectionString });
});

afterAll(async () => {
  await store?.close();
});

describe('sliding-window limiter on PostgreSQL against the memory store', () => {
  it('a hit stamped by a clock behind the latest still counts the slices a later clock has passed (limit 2, window 7 ms: 0, 0, 8, then 6)', async () => {
    for (const [name, limiter] of [
      ['postgres', store],
      ['memory', memoryStore()],
    ] as const) {
      const decisions: boolean[] = [];
      for (const at of [0, 0, 8, 6]) {
        const hit = { key: `write:behind-${name}`, limit: 2, windowMs: 7, now: new Date(T0 + at) };
        decisions.push((await limiter.consumeRateLimit(hit)).allowed);
      }
      // The window (−1, 6] holds the two hits at 0: a third there would be three in 7 ms.
      expect({ name, decisions }).toEqual({ name, decisions: [true, true, true, false] });
    }
  });

  it('same decision, remaining and reset for any sequence of hits, and never more than the limit in a window', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(60_000, 600, 7),
        // Mostly forward steps, some far ones, some back: instances whose clocks disagree, by less than a window.
        fc.array(fc.integer({ min: -5_000, max: 20_000 }), { minLength: 1, maxLength: 60 }),
        async (limit, windowMs, gaps) => {
          const key = `write:property-${run++}`;
          const reference = memoryStore();
          const admitted: number[] = [];
          let now = T0;
          let latest = T0;
          for (const gap of gaps) {
            now = Math.max(now + (gap % (windowMs * 3)), latest - windowMs + 1);
            latest = Math.max(latest, now);
            const hit = { key, limit, windowMs, now: new Date(now) };
            const [ours, expected] = await Promise.all([
              store.consumeRateLimit(hit),
              reference.consumeRateLimit(hit),
            ]);
            expect(ours).toEqual(expected);
            if (ours.allowed) admitted.push(now);
          }
          expect(busiestWindow(admitted, windowMs)).toBeLessThanOrEqual(limit);
          await reference.close();
        },
      ),
      { numRuns: 300 },
    );
  });
});
