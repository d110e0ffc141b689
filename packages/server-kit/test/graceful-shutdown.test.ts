// service.close() (issue 16 §2): refuses new work at once, lets in-flight requests finish within a deadline, stops workers between items.
import type { CreditEngine } from '@fin/server-kit';
import { sandboxCreditEngine, startWorkerLoop } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { cart, deviceImei, harness, PARTNER_A } from './support/harness.js';

/** A credit engine whose analyses wait until the test lets them go. */
function gatedCredit() {
  const sandbox = sandboxCreditEngine();
  const waiting: (() => void)[] = [];
  let arrived: () => void = () => {};
  const credit: CreditEngine = {
    async analyze(request) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        arrived();
      });
      return sandbox.analyze(request);
    },
  };
  return {
    credit,
    /** Resolves once `n` analyses are waiting. */
    waitFor: (n: number) =>
      new Promise<void>((resolve) => {
        arrived = () => waiting.length >= n && resolve();
        arrived();
      }),
    release: () => {
      for (const go of waiting.splice(0)) go();
    },
  };
}

describe('service.close()', () => {
  it('at once: readiness false and new requests 503 with Retry-After and Connection: close; the request in flight finishes with its answer', async () => {
    const gate = gatedCredit();
    const h = harness({ credit: gate.credit, healthPaths: { ready: '/readyz' } });
    await h.token();
    const inFlight = h.authorize(cart());
    await gate.waitFor(1);

    let closed = false;
    const closing = h.service.close().then(() => {
      closed = true;
    });
    expect(await h.service.health()).toMatchObject({
      live: true,
      ready: false,
      checks: { accepting: false },
    });
    const refused = await h.authorize(cart({ imei: deviceImei(2) }));
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('service_unavailable');
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('connection')).toBe('close');
    const probe = await h.service.fetch(new Request('http://fin.test/readyz'));
    expect(probe.status).toBe(503);
    expect((await probe.json()).checks.accepting).toBe(false);
    expect(closed).toBe(false);

    gate.release();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.data.authorized).toBe(true);
    // Answered while shutting down: its connection ends too, so the listener can close.
    expect(answered.headers.get('connection')).toBe('close');
    await closing;
    expect(h.logs.map((entry) => entry.event)).toEqual(
      expect.arrayContaining(['service.closing', 'service.closed']),
    );
    expect(h.logs.find((entry) => entry.event === 'service.closing')).toMatchObject({ inFlight: 1 });
  });

  it('waits no longer than limits.shutdownTimeoutMs for a request that does not finish, and says so in the log', async () => {
    const gate = gatedCredit();
    const h = harness({ credit: gate.credit, limits: { shutdownTimeoutMs: 30 } });
    await h.token();
    const stuck = h.authorize(cart());
    await gate.waitFor(1);
    await h.service.close();
    expect(h.logs.find((entry) => entry.event === 'service.close_timeout')).toMatchObject({
      inFlight: 1,
      shutdownTimeoutMs: 30,
    });
    expect(h.logs.find((entry) => entry.event === 'service.closed')).toMatchObject({ drained: false });
    gate.release();
    await stuck;
  });

  it('a second close() is the same shutdown', async () => {
    const h = harness();
    const first = h.service.close();
    expect(h.service.close()).toBe(first);
    await first;
  });

  it('stops a worker run between items: the sale searched when close() came is finished, the next ones are left for later', async () => {
    let searches = 0;
    let searching: () => void = () => {};
    let answer: () => void = () => {};
    const saleSearch = {
      async search() {
        searches += 1;
        searching();
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
        return { sales: [] };
      },
    };
    const h = harness({ clients: [{ ...PARTNER_A, saleSearch }] });
    for (const n of [1, 2, 3]) expect((await h.authorize(cart({ imei: deviceImei(n) }))).status).toBe(200);

    const searched = new Promise<void>((resolve) => {
      searching = resolve;
    });
    const run = h.service.workers.pollConfirmations();
    await searched;
    const closing = h.service.close();
    answer();
    expect(await run).toEqual({ checked: 1, confirmed: 0, waiting: 1, refused: 0 });
    await closing;
    expect(searches).toBe(1);
  });

  it('closes the worker loops attached to it, aborting the signal of their run in progress, and waits for that run', async () => {
    const h = harness();
    let ended = false;
    const loop = h.service.workers.attach(
      startWorkerLoop(
        (signal) =>
          new Promise<void>((resolve) =>
            signal.addEventListener('abort', () =>
              setImmediate(() => {
                ended = true;
                resolve();
              }),
            ),
          ),
        { name: 'cancellation-verifier', intervalMs: 60_000 },
      ),
    );
    await h.service.close();
    expect(ended).toBe(true);
    expect(loop.running).toBe(false);
    expect((await h.service.health()).checks.workers).toEqual({ 'cancellation-verifier': 'stopped' });
  });
});
