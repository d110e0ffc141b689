// The system token through the public transport: one shared refresh, renewal margin, 401 replay, token errors.
import { FinApiError } from '@fin/core';
import { createHttpClient, type HttpClientOptions } from '@fin/core/transport';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BASE, CLIENT, fail, ok, record, type SeenRequest, tokenEndpoint } from './transport-fixtures.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const payload = z.object({ value: z.number() });

function pingApi() {
  const seen: SeenRequest[] = [];
  const handler = http.get(`${BASE}/v1/ping`, async ({ request }) => {
    await record(request, seen);
    return ok({ value: 1 });
  });
  return { handler, seen };
}

/** A client whose clock the test moves by hand. */
function clientWithClock(extra: Partial<HttpClientOptions> = {}) {
  const clock = { ms: Date.parse('2026-03-02T12:00:00.000Z') };
  const client = createHttpClient({
    ...CLIENT,
    scopes: ['sales:authorize'],
    clock: { now: () => new Date(clock.ms) },
    rateLimit: false,
    ...extra,
  });
  const ping = () => client.request({ method: 'GET', path: '/v1/ping', rate: 'read', schema: payload });
  return { clock, client, ping };
}

describe('system token (spec section 5)', () => {
  it('asks with client_credentials, form-encoded, and only the scopes in use', async () => {
    const token = tokenEndpoint();
    const api = pingApi();
    server.use(token.handler, api.handler);
    const { ping } = clientWithClock();

    await ping();

    expect(token.seen).toHaveLength(1);
    expect(token.seen[0]?.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(token.seen[0]?.form ?? [])).toEqual({
      grant_type: 'client_credentials',
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      scope: 'sales:authorize',
    });
    expect(api.seen[0]?.authorization).toBe('Bearer token-1');
  });

  it('100 concurrent calls on an expired token cause exactly one token request', async () => {
    const token = tokenEndpoint(3600);
    const api = pingApi();
    server.use(token.handler, api.handler);
    const { clock, ping } = clientWithClock();
    await ping();
    clock.ms += 3600_000;

    await Promise.all(Array.from({ length: 100 }, ping));

    expect(token.seen).toHaveLength(2);
    expect(api.seen.slice(1).every((call) => call.authorization === 'Bearer token-2')).toBe(true);
  });

  it('never asks a token per call: the cached one serves every call while valid', async () => {
    const token = tokenEndpoint(3600);
    const api = pingApi();
    server.use(token.handler, api.handler);
    const { clock, ping } = clientWithClock();
    for (let i = 0; i < 10; i++) {
      await ping();
      clock.ms += 60_000;
    }
    expect(token.seen).toHaveLength(1);
  });

  it('renews 60 s before expires_in ends, and not before', async () => {
    const token = tokenEndpoint(3600);
    const api = pingApi();
    server.use(token.handler, api.handler);
    const { clock, ping } = clientWithClock();
    const issuedAt = clock.ms;
    await ping();

    clock.ms = issuedAt + 3540_000 - 1;
    await ping();
    expect(token.seen).toHaveLength(1);

    clock.ms = issuedAt + 3540_000;
    await ping();
    expect(token.seen).toHaveLength(2);
    expect(api.seen.at(-1)?.authorization).toBe('Bearer token-2');
  });

  it.each(['expired_token', 'invalid_token'] as const)(
    'a 401 %s drops the token and replays the call once',
    async (code) => {
      const token = tokenEndpoint();
      const seen: SeenRequest[] = [];
      server.use(
        token.handler,
        http.get(`${BASE}/v1/ping`, async ({ request }) => {
          await record(request, seen);
          return request.headers.get('authorization') === 'Bearer token-1' ? fail(code) : ok({ value: 2 });
        }),
      );
      const { ping } = clientWithClock();

      const result = await ping();

      expect(result.data).toEqual({ value: 2 });
      expect(token.seen).toHaveLength(2);
      expect(seen.map((call) => call.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
      expect(seen[0]?.requestId).not.toBe(seen[1]?.requestId);
    },
  );

  it('replays only once: a second 401 expired_token reaches the caller', async () => {
    const token = tokenEndpoint();
    server.use(
      token.handler,
      http.get(`${BASE}/v1/ping`, () => fail('expired_token')),
    );
    const { ping } = clientWithClock();

    await expect(ping()).rejects.toMatchObject({ name: 'FinApiError', code: 'expired_token', status: 401 });
    expect(token.seen).toHaveLength(2);
  });

  it('invalid_client (RFC 6749 body) surfaces as FinApiError with our catalog code, never retried', async () => {
    let tokenCalls = 0;
    server.use(
      http.post(`${BASE}/v1/oauth/token`, () => {
        tokenCalls += 1;
        return Response.json(
          { error: 'invalid_client', error_description: 'credential from another environment' },
          { status: 401 },
        );
      }),
    );
    const { ping } = clientWithClock();

    const error = await ping().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(FinApiError);
    expect(error).toMatchObject({ code: 'invalid_client', legacyCode: 'FA1004', status: 401 });
    expect(tokenCalls).toBe(1);
  });

  it('a token error carrying our code and legacyCode keeps them', async () => {
    server.use(
      http.post(`${BASE}/v1/oauth/token`, () =>
        Response.json(
          {
            error: 'invalid_scope',
            code: 'insufficient_scope',
            legacyCode: 'FA1005',
            message: 'scope not granted',
          },
          { status: 400 },
        ),
      ),
    );
    const { ping } = clientWithClock();
    await expect(ping()).rejects.toMatchObject({
      code: 'insufficient_scope',
      legacyCode: 'FA1005',
      status: 400,
    });
  });

  it('a failed refresh is not kept: the next call asks again', async () => {
    let tokenCalls = 0;
    const api = pingApi();
    server.use(
      api.handler,
      http.post(`${BASE}/v1/oauth/token`, () => {
        tokenCalls += 1;
        return tokenCalls === 1
          ? Response.json({ error: 'invalid_client' }, { status: 401 })
          : Response.json({ access_token: 'fresh', token_type: 'Bearer', expires_in: 3600 });
      }),
    );
    const { ping } = clientWithClock();
    await expect(ping()).rejects.toMatchObject({ code: 'invalid_client' });
    await expect(ping()).resolves.toMatchObject({ data: { value: 1 } });
    expect(api.seen[0]?.authorization).toBe('Bearer fresh');
  });
});
