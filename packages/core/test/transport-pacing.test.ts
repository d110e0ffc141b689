// Client-side pacing (spec section 8, DESIGN 16): a burst up to the allowance at once, never above it in any window.
import { createHttpClient, createPacer, type Pacer } from '@fin/core/transport';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BASE, CLIENT, fail, ok, tokenEndpoint } from './transport-fixtures.js';

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

/** When each of `count` acquires got its slot, in ms from now, once fake time has moved `advanceMs`. */
async function slotTimes(pacer: Pacer, count: number, advanceMs: number): Promise<number[]> {
  const start = Date.now();
  const times: number[] = [];
  const slots = Array.from({ length: count }, () =>
    pacer.acquire().then(() => times.push(Date.now() - start)),
  );
  await vi.advanceTimersByTimeAsync(advanceMs);
  await Promise.all(slots);
  return times;
}

const ping = (client: ReturnType<typeof createHttpClient>) =>
  client.request({ method: 'GET', path: '/v1/ping', rate: 'read', schema: z.object({}) });

describe('createPacer: a sliding window (DESIGN 16, issue 14)', () => {
  it.each([600, 120, 60])(
    'at %i/min: the whole allowance leaves at once, never more than the limit in any 60 s window, at least 0.95 of it',
    async (limit) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const pacer = createPacer({ limit });
      const sent: number[] = [];
      const start = Date.now();
      const total = limit * 3;
      const all = Array.from({ length: total }, () => pacer.acquire().then(() => sent.push(Date.now())));

      await vi.advanceTimersByTimeAsync(4 * 60_000);
      await Promise.all(all);

      expect(sent).toHaveLength(total);
      expect(sent.slice(0, limit).every((at) => at === start)).toBe(true);
      expect(busiestWindow(sent, 60_000)).toBeLessThanOrEqual(limit);
      const elapsedMinutes = ((sent.at(-1) ?? 0) - start) / 60_000;
      // Three allowances take two windows: the rate counts from the first send to the last window's start.
      expect((total - limit) / elapsedMinutes).toBeGreaterThanOrEqual(0.95 * limit);
    },
  );

  it('an abort while waiting rejects at once and takes no slot', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const pacer = createPacer({ limit: 1, windowMs: 1_000, marginMs: 0 });
    await pacer.acquire();
    const controller = new AbortController();
    const waiting = pacer.acquire(controller.signal).catch((error: unknown) => error);
    controller.abort(new Error('stop'));
    await expect(waiting).resolves.toMatchObject({ message: 'stop' });

    expect(await slotTimes(pacer, 2, 2_000)).toEqual([1_000, 2_000]);
  });

  it('holdUntil holds every caller until the time given, then lets them all leave', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const pacer = createPacer({ limit: 10 });
    pacer.holdUntil(Date.now() + 2_000);
    expect(await slotTimes(pacer, 2, 2_000)).toEqual([2_000, 2_000]);
  });
});

/** A ping endpoint recording when each request arrived; `answer` picks the response of the n-th (from 1). */
function pingEndpoint(answer: (n: number) => Response = () => ok({ value: 1 })): number[] {
  const seenAt: number[] = [];
  server.use(
    tokenEndpoint().handler,
    http.get(`${BASE}/v1/ping`, () => {
      seenAt.push(Date.now());
      return answer(seenAt.length);
    }),
  );
  return seenAt;
}

describe('pacing inside the HTTP client', () => {
  it('a burst up to the allowance leaves at once, the rest after the window, and another instance has its own budget', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seenAt = pingEndpoint();
    const client = createHttpClient({ ...CLIENT, rateLimit: { read: 3 } });
    const start = Date.now();
    const calls = Promise.all(Array.from({ length: 5 }, () => ping(client)));
    await vi.advanceTimersByTimeAsync(61_000);
    await calls;
    expect(seenAt.map((at) => at - start)).toEqual([0, 0, 0, 61_000, 61_000]);

    const other = createHttpClient({ ...CLIENT, rateLimit: { read: 3 } });
    const before = Date.now();
    await ping(other);
    expect(seenAt.at(-1)).toBe(before);
  });

  it('a 429 with Retry-After holds every caller of that client until the time given', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seenAt = pingEndpoint((n) =>
      n === 1 ? fail('rate_limit_exceeded', { headers: { 'Retry-After': '2' } }) : ok({}),
    );
    const client = createHttpClient({ ...CLIENT, maxRetries: 0 });
    const start = Date.now();
    await expect(ping(client)).rejects.toMatchObject({ code: 'rate_limit_exceeded', retryAfterMs: 2_000 });
    const later = ping(client);
    await vi.advanceTimersByTimeAsync(2_000);
    await later;
    expect(seenAt.map((at) => at - start)).toEqual([0, 2_000]);
  });
});
