// Test fixtures: a simulated partner behind msw, a client wired to it, and a driver for virtual time.
import { PosClient, type PosClientOptions } from '@fin/pos-client';
import {
  createSimulatedPos,
  type SimulatedPos,
  type SimulatedPosOptions,
  type SimulatedSeller,
  simulatedPosHandlers,
} from '@fin/pos-client/testing';
import { setupServer } from 'msw/node';
import { vi } from 'vitest';

export const BASE_URL = 'http://partner-pos.test';

/** A simulated partner served by msw at BASE_URL; `client()` builds a PosClient for it (pacing off unless asked). */
export function startPartner(options: SimulatedPosOptions = {}) {
  const sim = createSimulatedPos(options);
  const server = setupServer(...simulatedPosHandlers(sim, BASE_URL));
  server.listen({ onUnhandledRequest: 'error' });
  const client = (overrides: Partial<PosClientOptions> = {}) =>
    new PosClient({ baseUrl: BASE_URL, ...sim.credentials, rateLimit: false, ...overrides });
  return { sim, server, client, close: () => server.close() };
}

const realTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs `work` on fake timers and a fake Date, moving the clock 100 ms at a time once the work has had
 * its real turns, so minutes of pacing and backoff pass in moments. setImmediate stays real: it lets
 * the in-process HTTP exchange finish before the clock moves, so no attempt times out for nothing.
 */
export async function inVirtualTime<T>(work: () => Promise<T>, startAt?: Date): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  if (startAt) vi.setSystemTime(startAt);
  try {
    let done = false;
    const promise = work().finally(() => {
      done = true;
    });
    promise.catch(() => undefined);
    while (!done) {
      for (let i = 0; i < 5 && !done; i++) await realTick();
      if (!done) await vi.advanceTimersByTimeAsync(100);
    }
    return await promise;
  } finally {
    vi.useRealTimers();
  }
}

/** A logger that keeps every entry, to search the whole log for secrets afterwards. */
export function captureLog() {
  const entries: unknown[] = [];
  const keep = (entry: unknown) => {
    entries.push(entry);
  };
  return {
    logger: { debug: keep, info: keep, warn: keep, error: keep },
    entries,
    text: () => JSON.stringify(entries),
  };
}

/** The SellerSession fields a login of `seller` at `store` must give, by either login (v1's or the partner's provider). */
export const sessionOf = (seller: SimulatedSeller, store: SimulatedPos['data']['stores'][number]) => ({
  sellerId: seller.sellerId,
  sellerName: seller.name,
  taxId: seller.cpf,
  storeId: store.storeId,
  storeName: store.name,
  storeCnpj: store.cnpj,
  storeAddress: store.address,
});
