// Issue 19 through service.fetch: a store that becomes unavailable is a 503 with Retry-After, its keys never stuck, its outage logged once.
import { randomUUID } from 'node:crypto';
import {
  type CreditEngine,
  isStoreUnavailable,
  memoryStore,
  type Store,
  StoreUnavailableError,
  sandboxCreditEngine,
} from '@fin/server-kit';
import { describe, expect, it, vi } from 'vitest';
import { cart, harness } from './support/harness.js';

/**
 * memoryStore() whose chosen operations fail as an unreachable database would. `afterCommit` maps an
 * operation to the call (1st, 2nd ...) that does its work and then fails: committed, its reply lost.
 */
function flakyStore() {
  const inner = memoryStore();
  const down = new Set<string>();
  const afterCommit = new Map<string, number>();
  const store = new Proxy(inner, {
    get(target, name: string) {
      const operation = (target as unknown as Record<string, unknown>)[name];
      if (typeof operation !== 'function') return operation;
      return async (...args: unknown[]) => {
        if (down.has(name)) throw new StoreUnavailableError('ECONNREFUSED');
        const result = await operation.apply(target, args);
        const countdown = afterCommit.get(name);
        if (countdown !== undefined) afterCommit.set(name, countdown - 1);
        if (countdown === 1) throw new StoreUnavailableError('connection_lost');
        return result;
      };
    },
  }) as Store;
  return { store, inner, down, afterCommit };
}

describe('issue 19: the store unavailable', () => {
  it('an authorization committed whose reply was lost: 503 with Retry-After, and the retry with the key gets that authorization', async () => {
    const { store, inner, afterCommit } = flakyStore();
    const h = harness({ store });
    const key = randomUUID();
    const body = cart();
    afterCommit.set('createAuthorization', 1);
    const lost = await h.authorize(body, { idempotencyKey: key });
    expect(lost.status).toBe(503);
    expect(lost.body.error).toMatchObject({ code: 'service_unavailable', legacyCode: 'FA9002' });
    expect(lost.headers.get('retry-after')).toBe('1');

    const retry = await h.authorize(body, { idempotencyKey: key });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const stored = await inner.findActiveByImei({ imei: body.imei, now: h.clock.now() });
    expect(retry.body.data.authorizationId).toBe(stored?.authorizationId);
  });

  it('work that failed before committing releases its key at once: the retry runs, never 409 in progress', async () => {
    const { store, down } = flakyStore();
    const h = harness({ store });
    const key = randomUUID();
    // The database goes away mid-request: the use case's write fails, and so does the key's release.
    down.add('createAuthorization');
    down.add('releaseIdempotencyKey');
    expect((await h.authorize(cart(), { idempotencyKey: key })).status).toBe(503);
    down.clear();
    const retry = await h.authorize(cart(), { idempotencyKey: key });
    expect(retry.status).toBe(200);
    expect(retry.body.data.authorized).toBe(true);
  });

  it('a confirm committed whose reply was lost: the retry with the key gets the same contract', async () => {
    const { store, afterCommit } = flakyStore();
    const h = harness({ store });
    const { authorizationId } = (await h.authorize(cart())).body.data;
    const key = randomUUID();
    const invoice = {
      saleNumber: 'V-1',
      invoiceNumber: 'NF-1',
      nfeAccessKey: '35260312345678000199550010000000011000000019',
      invoicedAt: h.clock.now().toISOString(),
    };
    afterCommit.set('updateAuthorization', 1);
    expect((await h.confirm(authorizationId, invoice, { idempotencyKey: key })).status).toBe(503);
    const retry = await h.confirm(authorizationId, invoice, { idempotencyKey: key });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data.contractId).toMatch(/./);
  });

  it('a cancel whose verification committed but whose reply was lost: the retry replays its answer', async () => {
    const { store, afterCommit } = flakyStore();
    const h = harness({ store });
    const { authorizationId } = (await h.authorize(cart())).body.data;
    const key = randomUUID();
    // The first write records the notice, the second the verification with the call's answer.
    afterCommit.set('updateAuthorization', 2);
    expect((await h.cancel(authorizationId, { reason: 'EXCHANGE' }, { idempotencyKey: key })).status).toBe(
      503,
    );
    const retry = await h.cancel(authorizationId, { reason: 'EXCHANGE' }, { idempotencyKey: key });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data).toMatchObject({ authorizationId, reason: 'EXCHANGE', verification: 'PENDING' });
  });

  it('a cancel whose notice committed but whose reply was lost: the retry answers the one notice, verified again', async () => {
    const { store, inner, afterCommit } = flakyStore();
    const h = harness({ store });
    const { authorizationId } = (await h.authorize(cart())).body.data;
    const key = randomUUID();
    afterCommit.set('updateAuthorization', 1);
    expect((await h.cancel(authorizationId, { reason: 'EXCHANGE' }, { idempotencyKey: key })).status).toBe(
      503,
    );
    const retry = await h.cancel(authorizationId, { reason: 'EXCHANGE' }, { idempotencyKey: key });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ reason: 'EXCHANGE', verification: 'PENDING' });
    // Renewing a pending notice is what a repeated cancel does (S-2): the same notice, searched again.
    const stored = await inner.getAuthorization(authorizationId);
    expect(stored).toMatchObject({
      status: 'AUTHORIZED',
      cancellation: { reason: 'EXCHANGE', verification: 'PENDING' },
    });
  });

  it('an outage is logged once when it starts and once when it ends, with counts; no error line per request', async () => {
    const { store, down } = flakyStore();
    const h = harness({ store });
    await h.token();
    down.add('claimWrite');
    for (let i = 0; i < 5; i++) expect((await h.authorize(cart())).status).toBe(503);
    down.clear();
    expect((await h.authorize(cart())).status).toBe(200);
    expect(h.logs.filter((e) => e.event === 'store.unavailable')).toEqual([
      expect.objectContaining({ reason: 'ECONNREFUSED' }),
    ]);
    expect(h.logs.filter((e) => e.event === 'store.recovered')).toEqual([
      expect.objectContaining({ refused: 5, reasons: { ECONNREFUSED: 5 } }),
    ]);
    expect(h.logs.filter((e) => e.event === 'http.failure')).toEqual([]);
  });

  it('a request past its deadline is 503; its work commits whole with its answer, which the retry replays', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sandbox = sandboxCreditEngine();
    const slowCredit: CreditEngine = {
      async analyze(request) {
        await held;
        return sandbox.analyze(request);
      },
    };
    const h = harness({ credit: slowCredit, limits: { requestDeadlineMs: 50, idempotencyLeaseMs: 5_000 } });
    await h.token();
    const key = randomUUID();
    const late = await h.authorize(cart(), { idempotencyKey: key });
    expect(late.status).toBe(503);
    expect(late.body.error.code).toBe('service_unavailable');
    release();
    const retry = await h.authorize(cart(), { idempotencyKey: key });
    expect(retry.status).toBe(200);
    expect(retry.body.data.authorized).toBe(true);
    // Once: a third try replays the same authorization.
    const third = await h.authorize(cart(), { idempotencyKey: key });
    expect(third.body.data.authorizationId).toBe(retry.body.data.authorizationId);
  });

  it('the lease must outlive the deadline: a service configured otherwise does not start', () => {
    expect(() => harness({ limits: { requestDeadlineMs: 10_000, idempotencyLeaseMs: 5_000 } })).toThrow(
      /idempotencyLeaseMs must exceed limits.requestDeadlineMs/,
    );
  });
  it('SH-2: a StoreUnavailableError of another copy of the package (its own class) is still a 503 with Retry-After', async () => {
    // A second instance of the module, as a CommonJS copy beside the ESM one or a store bundled by the app.
    vi.resetModules();
    const other = await import('../src/ports/store-unavailable.js');
    expect(other.StoreUnavailableError).not.toBe(StoreUnavailableError);
    const foreign = new other.StoreUnavailableError('ECONNREFUSED');
    expect(foreign).toBeInstanceOf(StoreUnavailableError);
    expect(isStoreUnavailable(foreign)).toBe(true);
    expect(new StoreUnavailableError('57P01')).toBeInstanceOf(other.StoreUnavailableError);
    expect(new Error('ECONNREFUSED')).not.toBeInstanceOf(StoreUnavailableError);
    const inner = memoryStore();
    const store = new Proxy(inner, {
      get: (target, name) =>
        name === 'claimWrite' ? async () => Promise.reject(foreign) : Reflect.get(target, name),
    });
    const answer = await harness({ store }).authorize(cart(), { idempotencyKey: randomUUID() });
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ code: 'service_unavailable' });
    expect(answer.headers.get('retry-after')).toBe('1');
  });
});
