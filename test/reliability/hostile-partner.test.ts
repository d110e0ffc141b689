// A hostile peer: redirects, stalls and drips under forced GC, huge bodies, endless lists. Every call ends typed, nothing leaks.
import { AuthorizationClient, FinTimeoutError } from '@fin/authorization-client';
import { FinRedirectError, FinResponseTooLargeError } from '@fin/core';
import { PosClient } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { memoryStore } from '@fin/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartFor, imeiStream, PARTNER_A, reliabilityService } from './support/financing.js';
import { gc } from './support/heap.js';
import {
  clientTransport,
  type HostilePeer,
  type Misbehaviour,
  type RecordingHost,
  startHostilePeer,
  startRecordingHost,
  suiteTransport,
} from './support/hostile-peer.js';
import { failOnUnhandledRejections } from './support/unhandled.js';

failOnUnhandledRejections();

const transport = suiteTransport;

/** Forces a full collection every 20 ms while `run` is pending: a composite signal dropped by GC shows at once. */
async function underGc<T>(run: () => Promise<T>): Promise<T> {
  const timer = setInterval(gc, 20);
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the call succeeded'),
    (error: unknown) => error,
  );

const sim = createSimulatedPos({
  size: { stores: 2, productsPerStore: 20, employees: 20 },
  rateLimit: false,
});
const service = reliabilityService({ store: memoryStore() });
const nextImei = imeiStream(87);
let recorder: RecordingHost;
let misbehave: (method: string, path: string) => Misbehaviour | undefined = () => undefined;
let partner: HostilePeer;
let financing: HostilePeer;

beforeAll(async () => {
  recorder = await startRecordingHost(transport);
  partner = await startHostilePeer(sim.fetch, (m, p) => misbehave(m, p), transport);
  financing = await startHostilePeer(service.fetch, (m, p) => misbehave(m, p), transport);
});

afterAll(async () => {
  await Promise.all([recorder.close(), partner.close(), financing.close()]);
  await service.close();
});

const pos = (
  options: { timeoutMs?: number; deadlineMs?: number; maxRetries?: number; maxResponseBytes?: number } = {},
) =>
  new PosClient({
    baseUrl: partner.url,
    ...sim.credentials,
    rateLimit: false,
    ...clientTransport(transport),
    ...options,
  });

const pointOfSale = (options: { timeoutMs?: number; deadlineMs?: number; maxRetries?: number } = {}) =>
  new AuthorizationClient({
    baseUrl: financing.url,
    clientId: PARTNER_A.clientId,
    clientSecret: PARTNER_A.clientSecret,
    rateLimit: false,
    ...clientTransport(transport),
    ...options,
  });

/** Every request to `path` (the token endpoint included when named) answered by a redirect to the recorder. */
const redirectOn = (status: 301 | 302 | 303 | 307 | 308, target: string) => {
  const location = `${recorder.url}/collect?token=leak&cpf=52998224725`;
  misbehave = (_method, path) => (path === target ? { kind: 'redirect', status, location } : undefined);
};

describe('DESIGN 19: no client follows a redirect; the target receives nothing', () => {
  const confirmation = {
    saleNumber: 'V-1',
    invoiceNumber: '1',
    nfeAccessKey: '35260317371324000139550010000000771000000779',
    invoicedAt: new Date().toISOString(),
  };
  const cases: [string, 301 | 302 | 303 | 307 | 308, string, () => Promise<unknown>][] = [
    ['pos-client token call', 307, '/v1/oauth/token', () => pos().stores.list().toArray()],
    [
      'pos-client sale search (a CPF in the body)',
      307,
      '/v1/sales/search',
      () => pos().sales.search({ taxId: '52998224725' }),
    ],
    ['pos-client store list', 302, '/v1/stores', () => pos().stores.list().toArray()],
    [
      'authorization-client token call',
      308,
      '/v1/oauth/token',
      () => pointOfSale().authorize(cartFor(nextImei(), PARTNER_A.storeId)),
    ],
    [
      'authorize',
      307,
      '/v1/sales/authorize',
      () => pointOfSale().authorize(cartFor(nextImei(), PARTNER_A.storeId)),
    ],
    [
      'confirm',
      308,
      '/v1/sales/auth-redirect/confirm',
      () => pointOfSale().confirm('auth-redirect', confirmation),
    ],
    [
      'cancel',
      301,
      '/v1/sales/auth-redirect/cancel',
      () => pointOfSale().cancel('auth-redirect', { reason: 'CUSTOMER_GAVE_UP' }),
    ],
  ];

  it.each(cases)(
    '%s: a %i is a FinRedirectError naming the status and the origin only, sent once',
    async (_name, status, path, call) => {
      redirectOn(status, path);
      const before = [...partner.received, ...financing.received].filter((line) =>
        line.endsWith(` ${path}`),
      ).length;
      const error = await failureOf(call());
      misbehave = () => undefined;
      expect(error).toBeInstanceOf(FinRedirectError);
      const redirect = error as FinRedirectError;
      expect(redirect).toMatchObject({ code: 'redirect_refused', status, location: recorder.url });
      expect(redirect.message).not.toContain('leak');
      expect(JSON.stringify(redirect)).not.toContain('cpf=');
      const after = [...partner.received, ...financing.received].filter((line) =>
        line.endsWith(` ${path}`),
      ).length;
      expect(after - before, 'a redirect is not retried').toBe(1);
      expect(recorder.requests).toEqual([]);
    },
  );
});

describe('DESIGN 19: every call ends, headers and body, whatever the garbage collector does (forced GC every 20 ms)', () => {
  it('a partner that sends headers then stalls: each attempt ends at timeoutMs (FinTimeoutError, attempt), retried, then given up', async () => {
    misbehave = (_method, path) => (path === '/v1/stores' ? { kind: 'stall' } : undefined);
    const before = partner.received.filter((line) => line === 'GET /v1/stores').length;
    const client = pos({ timeoutMs: 200, maxRetries: 1 });
    const attempts: number[] = [];
    client.on('request', (event) => event.route === '/v1/stores' && attempts.push(event.attempt));
    const error = await underGc(() => failureOf(client.stores.list().toArray()));
    misbehave = () => undefined;
    expect(error).toBeInstanceOf(FinTimeoutError);
    expect(error).toMatchObject({ code: 'timeout', scope: 'attempt', timeoutMs: 200 });
    expect(attempts).toEqual([1, 2]);
    // The partner saw at most those two: on a loaded machine (and with mutual TLS's handshake) an attempt can
    // reach its 200 ms before the partner has read its request line.
    const received = partner.received.filter((line) => line === 'GET /v1/stores').length - before;
    expect(received).toBeLessThanOrEqual(2);
  });

  it('a partner that drips a byte every 50 ms under a long attempt timeout: the call deadline ends it (scope deadline)', async () => {
    misbehave = (_method, path) => (path === '/v1/stores' ? { kind: 'drip', everyMs: 50 } : undefined);
    const client = pos({ timeoutMs: 60_000, deadlineMs: 500, maxRetries: 0 });
    const error = await underGc(() => failureOf(client.stores.list().toArray()));
    misbehave = () => undefined;
    expect(error).toMatchObject({ code: 'timeout', scope: 'deadline', timeoutMs: 500 });
  });

  it('the financing service dripping an authorize answer: the POS call ends at its deadline too', async () => {
    misbehave = (_method, path) =>
      path === '/v1/sales/authorize' ? { kind: 'drip', everyMs: 50 } : undefined;
    const client = pointOfSale({ timeoutMs: 60_000, deadlineMs: 500, maxRetries: 0 });
    const error = await underGc(() => failureOf(client.authorize(cartFor(nextImei(), PARTNER_A.storeId))));
    misbehave = () => undefined;
    expect(error).toMatchObject({ code: 'timeout', scope: 'deadline' });
  });
});

describe('DESIGN 19: every call is bounded in bytes and pages', () => {
  const storesPage = (filler: string) =>
    JSON.stringify({
      success: true,
      message: '',
      timestamp: new Date().toISOString(),
      data: {
        stores: [{ ...sim.data.stores[0], name: filler }],
        pagination: { page: 1, pageSize: 200, totalItems: 1, totalPages: 1 },
      },
    });

  it.each([true, false])(
    'a 10 MiB store name (Content-Length announced: %s) is a FinResponseTooLargeError at the 4 MiB default, the socket released',
    async (announce) => {
      misbehave = (_method, path) =>
        path === '/v1/stores'
          ? { kind: 'huge', bytes: 10 * 1024 * 1024, announce, body: storesPage }
          : undefined;
      const released = partner.released();
      const error = await failureOf(pos({ maxRetries: 2 }).stores.list().toArray());
      misbehave = () => undefined;
      expect(error).toBeInstanceOf(FinResponseTooLargeError);
      expect(error).toMatchObject({ code: 'response_too_large', limit: 4 * 1024 * 1024, unit: 'bytes' });
      await expect.poll(() => partner.released() - released).toBe(1);
    },
  );

  it('maxResponseBytes is the client option: a 300-character name over a 256-byte limit is refused, under 4 KiB read', async () => {
    misbehave = (_method, path) =>
      path === '/v1/stores' ? { kind: 'huge', bytes: 300, announce: false, body: storesPage } : undefined;
    await expect(pos({ maxResponseBytes: 256 }).stores.list().toArray()).rejects.toMatchObject({
      code: 'response_too_large',
      limit: 256,
    });
    const stores = await pos({ maxResponseBytes: 4096 }).stores.list().toArray();
    misbehave = () => undefined;
    expect(stores.map((store) => store.name.length)).toEqual([300]);
  });

  it('HP-4: a store name over its 300-character maxLength breaks the contract, naming the field', async () => {
    misbehave = (_method, path) =>
      path === '/v1/stores' ? { kind: 'huge', bytes: 301, announce: false, body: storesPage } : undefined;
    const error = await failureOf(pos().stores.list().toArray());
    misbehave = () => undefined;
    expect(error).toMatchObject({
      code: 'response_invalid',
      issues: [expect.objectContaining({ path: 'data.stores.0.name' })],
    });
  });

  it('a maxResponseBytes that is not a positive integer is refused when the client is made', () => {
    for (const maxResponseBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => pos({ maxResponseBytes })).toThrow(expect.objectContaining({ code: 'validation_error' }));
    }
  });

  it('a partner announcing totalItems 1e9: the list is refused at its first page (maxPages, default 1 000)', async () => {
    const endless = async (request: Request) => {
      const response = await sim.fetch(request);
      if (new URL(request.url).pathname !== '/v1/stores') return response;
      const body = (await response.json()) as { data: { pagination: Record<string, number> } };
      body.data.pagination = { ...body.data.pagination, totalItems: 1e9, totalPages: 5e6 };
      return Response.json(body);
    };
    const peer = await startHostilePeer(endless, () => undefined, transport);
    try {
      const client = new PosClient({
        baseUrl: peer.url,
        ...sim.credentials,
        rateLimit: false,
        ...clientTransport(transport),
      });
      const error = await failureOf(client.stores.list().toArray());
      expect(error).toMatchObject({ code: 'response_too_large', limit: 1000, unit: 'pages' });
      expect(peer.received.filter((line) => line === 'GET /v1/stores')).toHaveLength(1);
      await expect(client.stores.list({ maxPages: 3 }).toArray()).rejects.toMatchObject({
        limit: 3,
        unit: 'pages',
      });
    } finally {
      await peer.close();
    }
  });
});
