// service.health() and the probe routes (issue 16 §1): liveness, readiness from the store and the attached workers, no auth, nothing of the configuration.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { memoryStore, StoreUnavailableError, startWorkerLoop, toNodeHandler } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { harness, PARTNER_A } from './support/harness.js';

const probes = { healthPaths: { live: '/healthz', ready: '/readyz' } };

const get = (h: ReturnType<typeof harness>, path: string, init: RequestInit = {}) =>
  h.service.fetch(new Request(`http://fin.test${path}`, init));

/** A loop that waits on its signal, so it runs until closed. */
const idleLoop = (name: string) =>
  startWorkerLoop(
    (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve())),
    { name, intervalMs: 60_000 },
  );

describe('service.health()', () => {
  it('on the memory store: live, ready, store up, no workers', async () => {
    const h = harness();
    expect(await h.service.health()).toEqual({
      live: true,
      ready: true,
      checks: { accepting: true, store: 'up', workers: {} },
    });
  });

  it('an attached worker loop counts: running is ready, a loop that stopped makes the instance not ready', async () => {
    const h = harness();
    const verifier = h.service.workers.attach(idleLoop('cancellation-verifier'));
    h.service.workers.attach(idleLoop('confirmation-poller'));
    expect(await h.service.health()).toMatchObject({
      ready: true,
      checks: { workers: { 'cancellation-verifier': 'running', 'confirmation-poller': 'running' } },
    });
    await verifier.close();
    expect(await h.service.health()).toMatchObject({
      live: true,
      ready: false,
      checks: { workers: { 'cancellation-verifier': 'stopped', 'confirmation-poller': 'running' } },
    });
    await h.service.close();
  });

  it('a store whose ping fails, or does not answer within healthCheckTimeoutMs, is down and the instance not ready', async () => {
    const failing = {
      ...memoryStore(),
      ping: () => Promise.reject(new StoreUnavailableError('ECONNREFUSED')),
    };
    expect(await harness({ store: failing }).service.health()).toMatchObject({
      live: true,
      ready: false,
      checks: { store: 'down' },
    });
    const silent = { ...memoryStore(), ping: () => new Promise<void>(() => {}) };
    const h = harness({ store: silent, limits: { healthCheckTimeoutMs: 20 } });
    expect(await h.service.health()).toMatchObject({ ready: false, checks: { store: 'down' } });
  });

  it('checks that arrive while a ping is waiting share it: one database round trip, not one each', async () => {
    let pings = 0;
    let answer = () => {};
    const store = {
      ...memoryStore(),
      ping: () => {
        pings += 1;
        return new Promise<void>((resolve) => {
          answer = resolve;
        });
      },
    };
    const h = harness({ store });
    const checks = [h.service.health(), h.service.health(), h.service.health()];
    answer();
    const reports = await Promise.all(checks);
    expect(pings).toBe(1);
    expect(reports.every((report) => report.ready)).toBe(true);
  });

  it('a store without ping (a custom Store of an older release) counts as up', async () => {
    const { ping: _, ...store } = memoryStore();
    expect((await harness({ store }).service.health()).checks.store).toBe('up');
  });
});

describe('probe routes (healthPaths)', () => {
  it('are off unless the host asks: /healthz is the API’s 404 envelope', async () => {
    const answer = await get(harness(), '/healthz');
    expect(answer.status).toBe(404);
    expect((await answer.json()).error.code).toBe('not_found');
  });

  it('liveness 200 { status: ok }; readiness 200 with its checks; uncached; HEAD without body', async () => {
    const h = harness(probes);
    const live = await get(h, '/healthz');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    expect(live.headers.get('cache-control')).toBe('no-store');
    const ready = await get(h, '/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { accepting: true, store: 'up', workers: 'none' },
    });
    const head = await get(h, '/readyz', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await get(h, '/readyz', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('readiness answers 503 with a small body when the store is down; liveness stays 200', async () => {
    const store = { ...memoryStore(), ping: () => Promise.reject(new StoreUnavailableError('57P01')) };
    const h = harness({ ...probes, store });
    const ready = await get(h, '/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      status: 'not_ready',
      checks: { accepting: true, store: 'down', workers: 'none' },
    });
    expect((await get(h, '/healthz')).status).toBe(200);
  });

  it('a bearer token, valid or not, changes nothing and grants nothing: the same answer, never a 401, never the API', async () => {
    const h = harness(probes);
    const token = await h.token(PARTNER_A);
    const plain = await (await get(h, '/readyz')).text();
    for (const authorization of [`Bearer ${token}`, 'Bearer not-a-token', 'Basic Zm9vOmJhcg==']) {
      const answer = await get(h, '/readyz', { headers: { authorization } });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(plain);
    }
    // And the token does not open the API on a probe path nor the probe on an API path.
    const api = await get(h, '/v1/readyz', { headers: { authorization: `Bearer ${token}` } });
    expect(api.status).toBe(404);
  });

  it('the answers name no configuration: no client id, secret, store, host, version or request id', async () => {
    const h = harness(probes);
    const requestId = randomUUID();
    const answers = await Promise.all(
      ['/healthz', '/readyz'].map((path) => get(h, path, { headers: { 'x-request-id': requestId } })),
    );
    for (const answer of answers) {
      const text = `${[...answer.headers].join(' ')} ${await answer.text()}`;
      for (const secret of [PARTNER_A.clientId, PARTNER_A.clientSecret, 'memory', 'sandbox', requestId]) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toMatch(/version|node|\d+\.\d+\.\d+/i);
    }
  });

  it('the same routes through toNodeHandler on a real loopback server', async () => {
    const h = harness(probes);
    const server = createServer(toNodeHandler(h.service));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      expect((await fetch(`${base}/readyz?verbose=1`)).status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.each([
    [{ live: 'healthz' }, /must be a path/],
    [{ ready: '/v1/oauth/token' }, /is a path of the API/],
    [{ live: '/v1/sales/abc/confirm' }, /is a path of the API/],
    [{ live: '/probe', ready: '/probe' }, /must differ/],
  ])(
    'a probe path that is not a path or shadows the API is refused at creation: %o',
    (healthPaths, message) => {
      expect(() => harness({ healthPaths })).toThrow(message);
    },
  );
});
