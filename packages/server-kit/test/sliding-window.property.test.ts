// Spec 8 / DESIGN 16 / issue 27 §3: the limiter's invariants over any sequence of hits (clocks of several instances within a window), through the memory store's port.
import { memoryStore } from '@fin/server-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { busiestWindow } from './support/busiest-window.js';

const WINDOW = 60_000;
const T0 = Date.parse('2026-03-02T12:00:00.000Z');

describe('sliding-window limiter invariants (memory store)', () => {
  it('never admits more than the limit in any 60 s window, and admits again once a whole window and slice are quiet', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        // Forward steps and some back: instances whose clocks disagree, by less than a window.
        fc.array(fc.integer({ min: -20_000, max: 15_000 }), { minLength: 1, maxLength: 80 }),
        async (limit, gaps) => {
          const store = memoryStore();
          const admitted: number[] = [];
          let now = T0;
          let latest = T0;
          for (const gap of gaps) {
            now = Math.max(now + gap, latest - WINDOW + 1);
            latest = Math.max(latest, now);
            const decision = await store.consumeRateLimit({
              key: 'write:p',
              limit,
              windowMs: WINDOW,
              now: new Date(now),
            });
            if (decision.allowed) admitted.push(now);
            expect(decision.remaining).toBeGreaterThanOrEqual(0);
            if (!decision.allowed) expect(decision.resetAt.getTime()).toBeGreaterThan(now);
          }
          expect(busiestWindow(admitted, WINDOW)).toBeLessThanOrEqual(limit);
          const later = new Date(latest + WINDOW + WINDOW / 60);
          const after = await store.consumeRateLimit({ key: 'write:p', limit, windowMs: WINDOW, now: later });
          expect(after).toMatchObject({ allowed: true, remaining: limit - 1 });
          await store.close();
        },
      ),
      { numRuns: 200 },
    );
  });
});
