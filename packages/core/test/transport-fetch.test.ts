// What the injected `fetch` receives from the transport: the request as a bare fetch sends it, and a signal that aborts.

import { inspect } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FinAbortError, FinTimeoutError } from '@fin/core';
import { createHttpClient, type HttpClientOptions } from '@fin/core/transport';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BASE, CLIENT } from './transport-fixtures.js';

const KEY = '3f1c9a52-7b0e-4c1d-9e2f-8a6b5c4d3e21';

afterEach(() => {
  vi.useRealTimers();
});

interface FetchCall {
  url: string;
  init: RequestInit;
}

const envelope = (data: unknown) =>
  JSON.stringify({ success: true, message: 'ok', timestamp: new Date().toISOString(), data });
const tokenBody = JSON.stringify({ access_token: 'token-1', token_type: 'Bearer', expires_in: 3600 });

/** A fetch double: answers the token endpoint, and hands every other call to `answer`. */
function fetchDouble(answer: (call: FetchCall) => Promise<Response>) {
  const calls: FetchCall[] = [];
  // Held while they run, as fetch holds its own: a Request let go stops following its init's signal.
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    // What arrives, whether the transport hands a `Request` or a URL with its init.
    const request = new Request(input, init);
    requests.push(request);
    const call = {
      url: request.url,
      init: {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body: request.body ? await request.text() : undefined,
        signal: request.signal,
      },
    };
    calls.push(call);
    if (call.url.endsWith('/v1/oauth/token')) return new Response(tokenBody, { status: 200 });
    return answer(call);
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

/** Never answers; rejects with the signal's reason once it aborts, as fetch does. */
const hang = ({ init }: FetchCall) =>
  new Promise<Response>((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
  });

const newClient = (fetch: typeof globalThis.fetch, extra: Partial<HttpClientOptions> = {}) =>
  createHttpClient({ ...CLIENT, scopes: ['sales:authorize'], rateLimit: false, fetch, ...extra });

const payload = z.object({ value: z.number() });

/** A read against a server that never answers, with fake timers moved `advanceMs`: the error and the fetch double. */
async function unansweredRead(extra: Partial<HttpClientOptions>, advanceMs: number) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const double = fetchDouble(hang);
  const outcome = newClient(double.fetch, extra)
    .request({ method: 'GET', path: '/v1/ping', rate: 'read', schema: payload })
    .catch((e: unknown) => e);
  await vi.advanceTimersByTimeAsync(advanceMs);
  return { error: await outcome, lastSignal: double.calls.at(-1)?.init.signal };
}

/** A write of a small JSON body under an Idempotency-Key. */
const write = {
  method: 'POST',
  path: '/v1/sales/authorize',
  rate: 'write',
  body: { cart: { amount: 100 } },
  schema: payload,
  idempotencyKey: KEY,
} as const;

describe('the request the injected fetch receives', () => {
  it('a write arrives as URL, method, the JSON text and the transport headers', async () => {
    const double = fetchDouble(async () => new Response(envelope({ value: 1 }), { status: 200 }));
    await newClient(double.fetch).request({ ...write, correlationId: 'journey-1' });
    const sent = double.calls.at(-1);
    expect(sent?.url).toBe(`${BASE}/v1/sales/authorize`);
    expect(sent?.init.method).toBe('POST');
    expect(sent?.init.body).toBe('{"cart":{"amount":100}}');
    expect(sent?.init.headers).toMatchObject({
      authorization: 'Bearer token-1',
      'content-type': 'application/json',
      accept: 'application/json',
      'idempotency-key': KEY,
      'x-correlation-id': 'journey-1',
    });
  });

  it("a one-argument fetch (a service's `fetch(request)`) finds the whole request, body included, in the Request alone", async () => {
    const seen: { method: string; body: string; type: string | null; redirect: string }[] = [];
    const oneArgument = async (input: RequestInfo | URL): Promise<Response> => {
      const request = input as Request;
      if (request.url.endsWith('/v1/oauth/token')) return new Response(tokenBody, { status: 200 });
      seen.push({
        method: request.method,
        body: await request.text(),
        type: request.headers.get('content-type'),
        redirect: request.redirect,
      });
      return new Response(envelope({ value: 1 }), { status: 200 });
    };
    await newClient(oneArgument as typeof globalThis.fetch).request(write);
    expect(seen).toEqual([
      { method: 'POST', body: '{"cart":{"amount":100}}', type: 'application/json', redirect: 'manual' },
    ]);
  });

  it('the token request arrives form-encoded', async () => {
    const double = fetchDouble(async () => new Response(envelope({ value: 1 }), { status: 200 }));
    await newClient(double.fetch).request({ method: 'GET', path: '/v1/ping', rate: 'read', schema: payload });
    const token = double.calls[0];
    expect(token?.init.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded' });
    expect(new URLSearchParams(String(token?.init.body)).get('grant_type')).toBe('client_credentials');
  });

  it('a query reaches the URL, undefined values left out', async () => {
    const double = fetchDouble(async () => new Response(envelope({ value: 1 }), { status: 200 }));
    await newClient(double.fetch).request({
      method: 'GET',
      path: '/v1/stock',
      rate: 'read',
      query: { storeId: 'store-1', sku: undefined },
      schema: payload,
    });
    expect(double.calls.at(-1)?.url).toBe(`${BASE}/v1/stock?storeId=store-1`);
  });
});

describe('the injected fetch is aborted, so no connection outlives its call', () => {
  it('when the attempt outlives timeoutMs: FinTimeoutError, and the fetch signal aborted', async () => {
    const { error, lastSignal } = await unansweredRead({ timeoutMs: 1_000, maxRetries: 0 }, 1_000);
    expect(error).toBeInstanceOf(FinTimeoutError);
    expect(lastSignal?.aborted).toBe(true);
  });

  it('a retry after an attempt timeout gets a live signal and can succeed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let reads = 0;
    const double = fetchDouble((call) => {
      reads += 1;
      return reads === 1
        ? hang(call)
        : Promise.resolve(new Response(envelope({ value: 2 }), { status: 200 }));
    });
    const outcome = newClient(double.fetch, { timeoutMs: 1_000, maxRetries: 1, random: () => 0 }).request({
      method: 'GET',
      path: '/v1/ping',
      rate: 'read',
      schema: payload,
    });
    await vi.advanceTimersByTimeAsync(1_100);
    await expect(outcome).resolves.toMatchObject({ data: { value: 2 }, meta: { attempts: 2 } });
    const [first, second] = double.calls.slice(1);
    expect(first?.init.signal?.aborted).toBe(true);
    expect(second?.init.signal?.aborted).toBe(false);
  });

  /** Forces garbage collections, as a loaded process has them at any moment between two awaits. */
  async function collectGarbage() {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    for (let round = 0; round < 3; round += 1) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it.each([
    ['', false],
    [', even after a garbage collection', true],
  ])(
    "when the caller's signal aborts mid-request: FinAbortError, and the fetch signal aborted%s",
    async (_, collect) => {
      const double = fetchDouble(hang);
      const controller = new AbortController();
      const outcome = newClient(double.fetch)
        .request({
          method: 'GET',
          path: '/v1/ping',
          rate: 'read',
          schema: payload,
          signal: controller.signal,
        })
        .catch((e: unknown) => e);
      await vi.waitFor(() => expect(double.calls).toHaveLength(2));
      if (collect) await collectGarbage();
      controller.abort();
      expect(await outcome).toBeInstanceOf(FinAbortError);
      expect(double.calls.at(-1)?.init.signal?.aborted).toBe(true);
    },
  );

  it('when the overall deadline passes mid-request: FinTimeoutError of scope deadline', async () => {
    const { error, lastSignal } = await unansweredRead({ timeoutMs: 10_000, deadlineMs: 2_000 }, 2_000);
    expect(error).toMatchObject({ name: 'FinTimeoutError', scope: 'deadline' });
    expect(lastSignal?.aborted).toBe(true);
  });
});

describe('no secret in transport errors (issue 3: errors carry no token)', () => {
  it('an attempt timeout, inspected with its whole cause chain, shows no bearer token', async () => {
    const { error } = await unansweredRead({ timeoutMs: 1_000, maxRetries: 0 }, 1_000);
    expect(error).toBeInstanceOf(FinTimeoutError);
    expect(inspect(error, { depth: 20, showHidden: true })).not.toContain('token-1');
  });
});

describe('DESIGN 19: the byte bound holds whatever Content-Length says', () => {
  it.each([
    ['a Content-Length that understates the body', {}],
    [
      'a compressed answer, whose Content-Length counts the bytes before decoding',
      { 'content-encoding': 'gzip' },
    ],
  ])('%s: the bytes read are counted, FinResponseTooLargeError, the body cancelled', async (_, extra) => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(512).fill(0x20));
      },
      cancel() {
        cancelled = true;
      },
    });
    const double = fetchDouble(
      async () => new Response(body, { status: 200, headers: { 'content-length': '40', ...extra } }),
    );
    const error = await newClient(double.fetch, { maxResponseBytes: 2048, maxRetries: 0 })
      .request({ method: 'GET', path: '/v1/ping', rate: 'read', schema: payload })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'FinResponseTooLargeError', limit: 2048, unit: 'bytes' });
    expect(cancelled).toBe(true);
  });
});
