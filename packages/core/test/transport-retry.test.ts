// Retries through the public transport: which failures, how long to wait, the Idempotency-Key, abort and limits.
import { FinAbortError, FinConnectionError, FinTimeoutError } from '@fin/core';
import { createHttpClient, type HttpClientOptions } from '@fin/core/transport';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BASE, CLIENT, fail, ok, record, type SeenRequest, tokenEndpoint } from './transport-fixtures.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => server.use(tokenEndpoint().handler));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

const payload = z.object({ value: z.number() });
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const newClient = (extra: Partial<HttpClientOptions> = {}) =>
  createHttpClient({ ...CLIENT, scopes: ['sales:authorize'], rateLimit: false, random: () => 0, ...extra });

/** An endpoint answering the scripted responses in order, then the last one forever. */
function scripted(method: 'get' | 'post', path: string, answers: Array<() => Response>) {
  const seen: SeenRequest[] = [];
  const handler = http[method](`${BASE}${path}`, async ({ request }) => {
    await record(request, seen);
    const answer = answers[Math.min(seen.length, answers.length) - 1];
    return answer ? answer() : HttpResponse.error();
  });
  server.use(handler);
  return seen;
}

const write = (
  client: ReturnType<typeof newClient>,
  extra: { idempotencyKey?: string; correlationId?: string } = {},
) =>
  client.request({
    method: 'POST',
    path: '/v1/sales/authorize',
    rate: 'write',
    body: { a: 1 },
    schema: payload,
    ...extra,
  });

const read = (client: ReturnType<typeof newClient>, signal?: AbortSignal) =>
  client.request({ method: 'GET', path: '/v1/ping', rate: 'read', schema: payload, signal });

describe('Idempotency-Key and request ids (spec sections 4, 5 and 8)', () => {
  it('a write that meets a 503 then succeeds is sent twice with the same key, new request ids, one correlation id', async () => {
    const seen = scripted('post', '/v1/sales/authorize', [
      () => fail('service_unavailable'),
      () => ok({ value: 7 }),
    ]);

    const result = await write(newClient(), { correlationId: '0b9c7f2e-5d0a-4c43-9a57-3c1f1f5b2d11' });

    expect(result.data).toEqual({ value: 7 });
    expect(result.meta.attempts).toBe(2);
    expect(seen).toHaveLength(2);
    const [first, second] = seen;
    expect(first?.idempotencyKey).toMatch(UUID_V4);
    expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
    expect(first?.requestId).toMatch(UUID_V4);
    expect(second?.requestId).toMatch(UUID_V4);
    expect(second?.requestId).not.toBe(first?.requestId);
    expect(seen.map((call) => call.correlationId)).toEqual([
      '0b9c7f2e-5d0a-4c43-9a57-3c1f1f5b2d11',
      '0b9c7f2e-5d0a-4c43-9a57-3c1f1f5b2d11',
    ]);
    expect(result.meta.idempotencyKey).toBe(first?.idempotencyKey);
  });

  it("the caller's own Idempotency-Key is kept on every attempt", async () => {
    const seen = scripted('post', '/v1/sales/authorize', [
      () => fail('service_unavailable'),
      () => ok({ value: 7 }),
    ]);
    await write(newClient(), { idempotencyKey: '6f1c3a52-2b5e-4b8e-9d3a-0c2a1f9e7b44' });
    expect(seen.map((call) => call.idempotencyKey)).toEqual([
      '6f1c3a52-2b5e-4b8e-9d3a-0c2a1f9e7b44',
      '6f1c3a52-2b5e-4b8e-9d3a-0c2a1f9e7b44',
    ]);
  });

  it('one key per call: two calls are two business intentions', async () => {
    const seen = scripted('post', '/v1/sales/authorize', [() => ok({ value: 1 })]);
    const client = newClient();
    await write(client);
    await write(client);
    expect(seen[0]?.idempotencyKey).not.toBe(seen[1]?.idempotencyKey);
  });

  it('reads carry no Idempotency-Key, and a new correlation id per call when none is given', async () => {
    const seen = scripted('get', '/v1/ping', [() => ok({ value: 1 })]);
    const client = newClient();
    await read(client);
    await read(client);
    expect(seen[0]?.idempotencyKey).toBeNull();
    expect(seen[0]?.correlationId).toMatch(UUID_V4);
    expect(seen[1]?.correlationId).not.toBe(seen[0]?.correlationId);
  });
});

describe('retry policy (spec section 8)', () => {
  it('429 with Retry-After: 2 waits 2 s before the retry', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seen = scripted('get', '/v1/ping', [
      () => fail('rate_limit_exceeded', { headers: { 'Retry-After': '2' } }),
      () => ok({ value: 3 }),
    ]);
    const pending = read(newClient());

    await vi.advanceTimersByTimeAsync(1999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ data: { value: 3 } });
    expect(seen).toHaveLength(2);
  });

  it('Retry-After as an HTTP date is honoured too', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'Date'],
      now: Date.parse('2026-03-02T12:00:00.000Z'),
    });
    const seen = scripted('get', '/v1/ping', [
      () => fail('service_unavailable', { headers: { 'Retry-After': 'Mon, 02 Mar 2026 12:00:05 GMT' } }),
      () => ok({ value: 3 }),
    ]);
    const pending = read(newClient());
    await vi.advanceTimersByTimeAsync(4900);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    await expect(pending).resolves.toMatchObject({ data: { value: 3 } });
  });

  it('an abort during the Retry-After wait rejects at once with the abort error', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seen = scripted('get', '/v1/ping', [
      () => fail('rate_limit_exceeded', { headers: { 'Retry-After': '2' } }),
    ]);
    const controller = new AbortController();
    const pending = read(newClient(), controller.signal);
    const outcome = pending.catch((error: unknown) => error);

    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    const error = await outcome;

    expect(error).toBeInstanceOf(FinAbortError);
    expect(error).toMatchObject({ endpoint: 'GET /v1/ping' });
    expect(seen).toHaveLength(1);
  });

  it('a signal already aborted sends nothing', async () => {
    const seen = scripted('get', '/v1/ping', [() => ok({ value: 1 })]);
    await expect(read(newClient(), AbortSignal.abort())).rejects.toBeInstanceOf(FinAbortError);
    expect(seen).toHaveLength(0);
  });

  it('maxRetries: 0 sends exactly one request', async () => {
    const seen = scripted('get', '/v1/ping', [() => fail('service_unavailable')]);
    await expect(read(newClient({ maxRetries: 0 }))).rejects.toMatchObject({
      code: 'service_unavailable',
      status: 503,
    });
    expect(seen).toHaveLength(1);
  });

  it('defaults to 2 retries: three attempts, then the last error', async () => {
    const seen = scripted('get', '/v1/ping', [() => fail('internal_error')]);
    await expect(read(newClient())).rejects.toMatchObject({ code: 'internal_error', legacyCode: 'FA9001' });
    expect(seen).toHaveLength(3);
  });

  it.each([
    ['store_context_required', 400],
    ['insufficient_scope', 403],
    ['store_not_found', 404],
    ['total_mismatch', 422],
    ['idempotency_key_conflict', 409],
    ['not_implemented', 501],
  ] as const)('%s (%i) is not retried and rejects with the catalog code', async (code, status) => {
    const seen = scripted('post', '/v1/sales/authorize', [() => fail(code)]);
    await expect(write(newClient())).rejects.toMatchObject({ name: 'FinApiError', code, status });
    expect(seen).toHaveLength(1);
  });

  it('408 and 502 are retried', async () => {
    const seen = scripted('get', '/v1/ping', [
      () => fail('internal_error', { status: 408 }),
      () => fail('internal_error', { status: 502 }),
      () => ok({ value: 9 }),
    ]);
    await expect(read(newClient())).resolves.toMatchObject({ data: { value: 9 }, meta: { attempts: 3 } });
    expect(seen).toHaveLength(3);
  });

  it('a write still running on the server (409 idempotency_key_in_progress) is retried with the same key', async () => {
    const seen = scripted('post', '/v1/sales/authorize', [
      () => fail('idempotency_key_in_progress', { headers: { 'Retry-After': '0' } }),
      () => ok({ value: 5 }),
    ]);
    await expect(write(newClient())).resolves.toMatchObject({ data: { value: 5 } });
    expect(seen[1]?.idempotencyKey).toBe(seen[0]?.idempotencyKey);
  });

  it('a network error is retried, and reported as FinConnectionError when it persists', async () => {
    const seen = scripted('get', '/v1/ping', [() => HttpResponse.error()]);
    const error = await read(newClient()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinConnectionError);
    expect(error).toMatchObject({ endpoint: 'GET /v1/ping' });
    expect(seen).toHaveLength(3);
  });

  it('an attempt slower than timeoutMs is a FinTimeoutError, retried', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const seen: SeenRequest[] = [];
    server.use(
      http.get(`${BASE}/v1/ping`, async ({ request }) => {
        await record(request, seen);
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        return ok({ value: 1 });
      }),
    );
    const outcome = read(newClient({ timeoutMs: 1_000, maxRetries: 1 })).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_100);
    const error = await outcome;
    expect(error).toBeInstanceOf(FinTimeoutError);
    expect(error).toMatchObject({ scope: 'attempt', timeoutMs: 1_000 });
    expect(seen).toHaveLength(2);
  });

  it('the overall deadline ends the call, retries and waits included', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    scripted('get', '/v1/ping', [() => fail('service_unavailable', { headers: { 'Retry-After': '1' } })]);
    const outcome = read(newClient({ deadlineMs: 1_500, maxRetries: 5 })).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_500);
    const error = await outcome;
    expect(error).toMatchObject({ name: 'FinApiError', code: 'service_unavailable' });
  });

  it('a Retry-After longer than the cap is not waited: the error reaches the caller with retryAfterMs', async () => {
    const seen = scripted('get', '/v1/ping', [
      () => fail('rate_limit_exceeded', { headers: { 'Retry-After': '120' } }),
    ]);
    await expect(read(newClient())).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
      retryAfterMs: 120_000,
    });
    expect(seen).toHaveLength(1);
  });
});
