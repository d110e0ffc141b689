// Client-side pacing (spec section 8): never above the allowed rate, yet close to it.
import { createHttpClient, createPacer } from '@fin/core/transport';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BASE, CLIENT, ok, tokenEndpoint } from './transport-fixtures.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

/** Largest number of instants inside any window of `windowMs` (a server's sliding-window count). */
function busiestWindow(instants: number[], windowMs: number): number {
  let busiest = 0;
  let start = 0;
  for (let end = 0; end < instants.length; end++) {
    while ((instants[end] ?? 0) - (instants[start] ?? 0) >= windowMs) start++;
    busiest = Math.max(busiest, end - start + 1);
  }
  return busiest;
}

describe('createPacer', () => {
  it.each([
    [600, 5],
    [120, 5],
    [60, 1],
  ])(
    'at %i/min (burst %i): never more than the limit in any 60 s window, and at least 0.95 of it',
    async (limit, burst) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const pacer = createPacer({ limit, burst });
      const sent: number[] = [];
      const total = limit * 3;
      const all = Array.from({ length: total }, () => pacer.acquire().then(() => sent.push(Date.now())));

      await vi.advanceTimersByTimeAsync(4 * 60_000);
      await Promise.all(all);

      expect(sent).toHaveLength(total);
      expect(busiestWindow(sent, 60_000)).toBeLessThanOrEqual(limit);
      const elapsedMinutes = ((sent.at(-1) ?? 0) - (sent[0] ?? 0)) / 60_000;
      expect((total - burst) / elapsedMinutes).toBeGreaterThanOrEqual(0.95 * limit);
    },
  );

  it('an abort while waiting rejects at once and gives the slot back', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const pacer = createPacer({ limit: 60, burst: 1 });
    await pacer.acquire();
    const controller = new AbortController();
    const waiting = pacer.acquire(controller.signal).catch((error: unknown) => error);
    controller.abort(new Error('stop'));
    await expect(waiting).resolves.toMatchObject({ message: 'stop' });

    let next = 0;
    const pending = pacer.acquire().then(() => {
      next = Date.now();
    });
    const start = Date.now();
    await vi.advanceTimersByTimeAsync(1_000);
    await pending;
    expect(next - start).toBe(1_000);
  });
});

describe('pacing inside the HTTP client', () => {
  it('spaces reads at the configured rate per client instance, and another instance has its own budget', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seenAt: number[] = [];
    server.use(
      tokenEndpoint().handler,
      http.get(`${BASE}/v1/ping`, () => {
        seenAt.push(Date.now());
        return ok({ value: 1 });
      }),
    );
    const client = createHttpClient({ ...CLIENT, rateLimit: { read: 60, burst: 1 } });
    const ping = () =>
      client.request({ method: 'GET', path: '/v1/ping', kind: 'read', schema: z.object({}) });
    const calls = Promise.all(Array.from({ length: 5 }, ping));
    await vi.advanceTimersByTimeAsync(4_000);
    await calls;

    const start = seenAt[0] ?? 0;
    expect(seenAt.map((at) => at - start)).toEqual([0, 1_000, 2_000, 3_000, 4_000]);

    const other = createHttpClient({ ...CLIENT, rateLimit: { read: 60, burst: 1 } });
    const before = Date.now();
    await other.request({ method: 'GET', path: '/v1/ping', kind: 'read', schema: z.object({}) });
    expect(seenAt.at(-1)).toBe(before);
  });
});
