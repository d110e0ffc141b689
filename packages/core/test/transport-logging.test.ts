// The transport's logger and errors never carry a secret, a token or personal data in clear.
import { FinConnectionError, type LogEntry } from '@fin/core';
import { createHttpClient } from '@fin/core/transport';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BASE, CLIENT, fail, ok, tokenEndpoint } from './transport-fixtures.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const CPF = '52998224725';
const IMEI = '490154203237518';

function capture() {
  const entries: Array<{ level: string; entry: LogEntry }> = [];
  const at = (level: string) => (entry: LogEntry) => entries.push({ level, entry });
  return { entries, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

describe('logger option', () => {
  it('logs request, retry and response events with method, path, status, attempt, duration and request id', async () => {
    const { entries, logger } = capture();
    let calls = 0;
    server.use(
      tokenEndpoint().handler,
      http.post(`${BASE}/v1/sales/search`, () => {
        calls += 1;
        return calls === 1 ? fail('service_unavailable') : ok({ sales: [] });
      }),
    );
    const client = createHttpClient({ ...CLIENT, logger, rateLimit: false, random: () => 0 });
    await client.request({
      method: 'POST',
      path: '/v1/sales/search',
      rate: 'read',
      body: { taxId: CPF },
      schema: z.unknown(),
    });

    const events = entries.map(({ entry }) => entry.event);
    expect(events).toEqual([
      'http.request', // token
      'http.response',
      'http.request',
      'http.response',
      'http.retry',
      'http.request',
      'http.response',
    ]);
    const last = entries.at(-1)?.entry;
    expect(last).toMatchObject({ method: 'POST', path: '/v1/sales/search', status: 200, attempt: 2 });
    expect(last?.durationMs).toEqual(expect.any(Number));
    expect(last?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(entries.find(({ entry }) => entry.status === 503)?.level).toBe('warn');
  });

  it('a captured log holds no CPF, IMEI, secret or token in clear, not even from a query string', async () => {
    const { entries, logger } = capture();
    server.use(
      tokenEndpoint().handler,
      http.get(`${BASE}/v1/imei/validate`, () =>
        ok({ imeiValid: true, inStock: true, imei: IMEI, cpf: CPF }),
      ),
    );
    const client = createHttpClient({ ...CLIENT, logger, rateLimit: false });
    await client.request({
      method: 'GET',
      path: '/v1/imei/validate',
      query: { storeId: 's1', imei: IMEI },
      rate: 'read',
      schema: z.unknown(),
    });

    const text = JSON.stringify(entries);
    expect(entries.length).toBeGreaterThan(0);
    for (const secret of [CPF, IMEI, CLIENT.clientSecret, 'token-1', 'Bearer'])
      expect(text).not.toContain(secret);
  });

  it('is silent by default', async () => {
    server.use(
      tokenEndpoint().handler,
      http.get(`${BASE}/v1/ping`, () => ok({})),
    );
    const client = createHttpClient({ ...CLIENT, rateLimit: false });
    await expect(
      client.request({ method: 'GET', path: '/v1/ping', rate: 'read', schema: z.unknown() }),
    ).resolves.toBeDefined();
  });
});

describe('errors carry no secret', () => {
  it('neither message nor toJSON holds the Authorization header, token, secret or body', async () => {
    server.use(
      tokenEndpoint().handler,
      http.post(`${BASE}/v1/sellers/session`, () => HttpResponse.error()),
      http.post(`${BASE}/v1/sales/authorize`, () => fail('total_mismatch')),
    );
    const client = createHttpClient({ ...CLIENT, rateLimit: false, maxRetries: 0 });
    const body = { cpf: CPF, password: 'hunter2-password' };
    const errors = await Promise.all([
      client
        .request({ method: 'POST', path: '/v1/sellers/session', rate: 'read', body, schema: z.unknown() })
        .catch((e: unknown) => e),
      client
        .request({ method: 'POST', path: '/v1/sales/authorize', rate: 'write', body, schema: z.unknown() })
        .catch((e: unknown) => e),
    ]);
    expect(errors[0]).toBeInstanceOf(FinConnectionError);
    for (const error of errors) {
      const text = `${(error as Error).message} ${JSON.stringify(error)}`;
      for (const secret of [CPF, 'hunter2', CLIENT.clientSecret, 'token-1'])
        expect(text).not.toContain(secret);
    }
  });
});
