// Issue 37 §4: readiness with hysteresis (RDY-1) that also turns not ready while the store refuses requests 503 (RDY-2).
import { memoryStore, type Store, StoreUnavailableError } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { cart, harness } from './support/harness.js';

/** memoryStore() whose ping answers as `state.ping` says and whose writes fail while `state.writesDown`. */
function controlledStore() {
  const inner = memoryStore();
  const state = { ping: true, writesDown: false };
  const store: Store = {
    ...inner,
    ping: () => (state.ping ? Promise.resolve() : Promise.reject(new StoreUnavailableError('57P01'))),
    claimWrite: (claim) =>
      state.writesDown ? Promise.reject(new StoreUnavailableError('lock_timeout')) : inner.claimWrite(claim),
  };
  return { store, state };
}

/** Runs one check per entry of `pings` and returns readiness after each. */
async function readinessOver(h: ReturnType<typeof harness>, state: { ping: boolean }, pings: boolean[]) {
  const seen: boolean[] = [];
  for (const ping of pings) {
    state.ping = ping;
    seen.push((await h.service.health()).ready);
  }
  return seen;
}

describe('issue 37 §4: readiness with hysteresis', () => {
  it('RDY-1: not ready after 3 failed checks in a row, ready again after 2 passed ones (defaults)', async () => {
    const { store, state } = controlledStore();
    const h = harness({ store });
    expect(await readinessOver(h, state, [true, false, false, false, true, true])).toEqual([
      true,
      true,
      true,
      false,
      false,
      true,
    ]);
    // A failure streak broken by one pass starts again.
    expect(await readinessOver(h, state, [false, false, true, false, false])).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it('RDY-1: a flapping store (down every other check, as under max_connections=5) no longer flips readiness', async () => {
    const { store, state } = controlledStore();
    const h = harness({ store });
    const seen = await readinessOver(
      h,
      state,
      Array.from({ length: 40 }, (_, n) => n % 2 === 0),
    );
    const flips = seen.slice(1).filter((ready, n) => ready !== seen[n]).length;
    console.info(
      `[figures] RDY-1 flapping store, 40 checks: ${flips} readiness flips (39 without hysteresis)`,
    );
    expect(flips).toBe(0);
  });

  it('RDY-1: both thresholds are configurable; the first check decides alone', async () => {
    const { store, state } = controlledStore();
    state.ping = false;
    const h = harness({ store, readiness: { failuresBeforeNotReady: 1, successesBeforeReady: 4 } });
    expect(await readinessOver(h, state, [false, true, true, true, true, false])).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
    ]);
    expect(() => harness({ readiness: { successesBeforeReady: 0 } })).toThrow(TypeError);
  });

  it('RDY-2: while the store answers writes 503 (a lock, a full pool) the instance turns not ready though its ping answers; ready again once refusals stop', async () => {
    const { store, state } = controlledStore();
    const h = harness({ store });
    expect((await h.service.health()).ready).toBe(true);
    state.writesDown = true;
    expect((await h.authorize(cart())).status).toBe(503);
    const during = await readinessOver(h, state, [true, true, true]);
    expect(during).toEqual([true, true, false]);
    expect((await h.service.health()).checks.store).toBe('down');
    // No more refusals (the balancer sent nothing): once the window passed, two checks bring it back.
    state.writesDown = false;
    h.clock.advance(5_000);
    expect(await readinessOver(h, state, [true, true])).toEqual([false, true]);
    expect((await h.authorize(cart())).status).toBe(200);
  });
});
