// Issue 14 §3: per-call overrides, response metadata, User-Agent / appInfo / defaultHeaders, typed codes, sandbox values.
import { readFileSync } from 'node:fs';
import {
  AuthorizationClient,
  FinApiError,
  FinInputError,
  isFinApiError,
  type ResponseMeta,
} from '@fin/authorization-client';
import { magicValues, sandboxNfeAccessKey } from '@fin/authorization-client/testing';
import { type ErrorCode, nfeKey } from '@fin/core';
import type { ApiErrorCode } from '@fin/core/errors';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { authorizeAndConfirm, cart, sandboxClientOptions, useSandbox } from './fixtures.js';

const server = useSandbox();

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The headers of every request the sandbox receives. */
function headersSeen() {
  const seen: Array<{ path: string; headers: Headers }> = [];
  server.events.on('request:start', ({ request }) => {
    seen.push({ path: new URL(request.url).pathname, headers: request.headers });
  });
  return seen;
}

describe('per-call maxRetries and timeoutMs override the client’s', () => {
  it('maxRetries: 0 on one call lets the sandbox’s first 503 reach the caller; the client default retries it', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const faulty = () => cart({ storeId: magicValues.faultStoreIds.unavailableOnce });
    const error = await client.authorize(faulty(), { maxRetries: 0 }).catch((e) => e);
    expect(isFinApiError(error, 'service_unavailable')).toBe(true);
    expect(error.requestIds).toHaveLength(1);
    const result = await client.authorize(faulty());
    expect(result.lastResponse.attempts).toBe(2);
  });

  it('maxRetries: 3 on one call outlasts a client built with maxRetries: 0', async () => {
    const client = new AuthorizationClient({ ...sandboxClientOptions, maxRetries: 0 });
    const result = await client.authorize(cart({ storeId: magicValues.faultStoreIds.unavailableOnce }), {
      maxRetries: 3,
    });
    expect(result.authorized).toBe(true);
  });

  it('an override that is not a whole number is a FinInputError before any request', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const seen = headersSeen();
    await expect(client.authorize(cart(), { timeoutMs: 0 })).rejects.toMatchObject({
      name: 'FinInputError',
      details: [{ field: 'timeoutMs' }],
    });
    await expect(client.authorize(cart(), { maxRetries: 1.5 })).rejects.toBeInstanceOf(FinInputError);
    expect(seen).toEqual([]);
  });
});

describe('response metadata on success: lastResponse, non-enumerable', () => {
  it('carries the answering request id, X-Processing-Time-Ms and the raw headers, for a support ticket', async () => {
    const seen = headersSeen();
    const result = await new AuthorizationClient(sandboxClientOptions).authorize(cart());
    const sent = seen.find((request) => request.path === '/v1/sales/authorize')?.headers;
    const meta: ResponseMeta = result.lastResponse;
    expect(meta.status).toBe(200);
    expect(meta.requestId).toBe(sent?.get('x-request-id'));
    expect(meta.correlationId).toBe(sent?.get('x-correlation-id'));
    expect(meta.processingTimeMs).toEqual(expect.any(Number));
    expect(meta.headers['x-processing-time-ms']).toBe(String(meta.processingTimeMs));
    expect(meta.headers['content-type']).toContain('application/json');
    expect(Object.keys(result)).not.toContain('lastResponse');
    expect(JSON.parse(JSON.stringify(result))).not.toHaveProperty('lastResponse');
  });
});

describe('User-Agent, appInfo and defaultHeaders', () => {
  it('names the package and its version, the Node version, then the vendor’s app', async () => {
    const seen = headersSeen();
    const client = new AuthorizationClient({
      ...sandboxClientOptions,
      appInfo: { name: 'MyPOS', version: '2.1.0', url: 'https://pos.example' },
    });
    await client.authorize(cart());
    const expected = `fin-authorization-client/${version} node/${process.versions.node} MyPOS/2.1.0 (+https://pos.example)`;
    expect(seen.length).toBeGreaterThan(1);
    for (const request of seen) expect(request.headers.get('user-agent')).toBe(expected);
  });

  it('without appInfo, the package and Node only', async () => {
    const seen = headersSeen();
    await new AuthorizationClient(sandboxClientOptions).authorize(cart());
    expect(seen[0]?.headers.get('user-agent')).toBe(
      `fin-authorization-client/${version} node/${process.versions.node}`,
    );
  });

  it('an appInfo that cannot travel in a header is refused at construction', () => {
    expect(() => new AuthorizationClient({ ...sandboxClientOptions, appInfo: { name: 'My POS/2' } })).toThrow(
      FinInputError,
    );
  });

  it('defaultHeaders travel on every request', async () => {
    const seen = headersSeen();
    const client = new AuthorizationClient({
      ...sandboxClientOptions,
      defaultHeaders: { 'X-Tenant': 'loja-42' },
    });
    await client.authorize(cart());
    for (const request of seen) expect(request.headers.get('x-tenant')).toBe('loja-42');
  });

  it.each(['Authorization', 'X-Request-Id', 'Idempotency-Key', 'x-correlation-id', 'User-Agent'])(
    'defaultHeaders naming %s is refused at construction: it cannot override the SDK’s own',
    (name) => {
      const build = () =>
        new AuthorizationClient({ ...sandboxClientOptions, defaultHeaders: { [name]: 'mine' } });
      expect(build).toThrow(FinInputError);
      try {
        build();
      } catch (error) {
        expect((error as FinInputError).details).toEqual([
          { field: `defaultHeaders.${name}`, issue: expect.any(String) },
        ]);
      }
    },
  );
});

describe('FinApiError.code is the catalog’s code union, still open to codes a newer server adds', () => {
  it('after instanceof, code is ApiErrorCode (not any) and accepts every catalog code', async () => {
    const error: unknown = await new AuthorizationClient(sandboxClientOptions)
      .authorize(cart({ imei: magicValues.imei.alreadyFinanced }))
      .catch((e) => e);
    if (!(error instanceof FinApiError)) throw new Error('the sandbox answers imei_already_financed');
    expectTypeOf(error.code).not.toBeAny();
    expectTypeOf(error.code).toEqualTypeOf<ApiErrorCode>();
    expectTypeOf<ErrorCode>().toMatchTypeOf<typeof error.code>();
    expectTypeOf<'a_code_of_next_year'>().toMatchTypeOf<typeof error.code>();
    if (isFinApiError(error, 'imei_already_financed'))
      expectTypeOf(error.code).toEqualTypeOf<'imei_already_financed'>();
    expect(error.code).toBe('imei_already_financed');
  });
});

describe('sandbox magic values for the guide’s journey', () => {
  it('a cart built from magicValues.seller and planId is approved and confirms with magicValues.nfeAccessKey', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const sale = cart({ seller: magicValues.seller, planId: magicValues.planId });
    await expect(authorizeAndConfirm(client, sale)).resolves.toMatchObject({ status: 'CONFIRMED' });
  });

  it('the generator makes a valid key per invoice number and month, distinct for each invoice', () => {
    const issuedAt = new Date('2026-11-23T12:00:00Z');
    const keys = [1, 2, 999_999_999].map((n) => sandboxNfeAccessKey(n, issuedAt));
    for (const key of keys) {
      expect(nfeKey.isValid(key)).toBe(true);
      expect(key.slice(2, 6)).toBe('2611');
    }
    expect(new Set(keys).size).toBe(3);
    expect(magicValues.nfeAccessKeyFor).toBe(sandboxNfeAccessKey);
    expect(nfeKey.isValid(magicValues.nfeAccessKey)).toBe(true);
    expect(() => sandboxNfeAccessKey(0)).toThrow(RangeError);
  });

  it('FIT-6: the generator takes the invoiceNumber string a confirm sends, the same key as its number', () => {
    const issuedAt = new Date('2026-11-23T12:00:00Z');
    expect(sandboxNfeAccessKey('1234', issuedAt)).toBe(sandboxNfeAccessKey(1234, issuedAt));
    expect(sandboxNfeAccessKey('000000042', issuedAt)).toBe(sandboxNfeAccessKey(42, issuedAt));
    for (const bad of ['', '0', 'NF-12', '1234567890', '1.5', ' 12'])
      expect(() => sandboxNfeAccessKey(bad, issuedAt), bad).toThrow(RangeError);
  });
});
