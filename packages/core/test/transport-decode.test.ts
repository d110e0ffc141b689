// Envelope decoding through the public transport: FinApiError fields, catalog round-trip, broken bodies.
import {
  errorCatalog,
  errorCodes,
  FinApiError,
  FinResponseParseError,
  FinResponseValidationError,
  schemas,
} from '@fin/core';
import { createHttpClient } from '@fin/core/transport';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BASE, CLIENT, fail, ok, tokenEndpoint } from './transport-fixtures.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => server.use(tokenEndpoint().handler));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = () => createHttpClient({ ...CLIENT, rateLimit: false, maxRetries: 0 });
const confirm = () =>
  client().request({
    method: 'POST',
    path: '/v1/sales/auth-1/confirm',
    rate: 'write',
    body: {},
    schema: schemas.confirmResult,
  });

const answer = (response: () => Response) =>
  server.use(http.post(`${BASE}/v1/sales/auth-1/confirm`, response));

describe('error envelope -> FinApiError (spec section 7)', () => {
  it.each(errorCodes)('%s round-trips with the same code, legacy code and status', async (code) => {
    answer(() => fail(code));
    const error = await confirm().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinApiError);
    expect(error).toMatchObject({
      code,
      legacyCode: errorCatalog[code].legacyCode,
      status: errorCatalog[code].status,
    });
  });

  it('fills every field: message, details, docsUrl, requestId, correlationId, retryAfterMs, headers', async () => {
    answer(() =>
      fail('rate_limit_exceeded', {
        headers: { 'Retry-After': '3', 'X-Processing-Time-Ms': '4', 'Set-Cookie': 'session=abc' },
        details: [{ field: 'items[0].quantity', issue: 'too many' }],
      }),
    );
    const correlationId = '3d0c9a1e-1f7b-4a52-8f8e-0f5b9a7c2e10';
    const error = await client()
      .request({
        method: 'POST',
        path: '/v1/sales/auth-1/confirm',
        rate: 'write',
        schema: z.unknown(),
        correlationId,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinApiError);
    const apiError = error as FinApiError;
    expect(apiError).toMatchObject({
      code: 'rate_limit_exceeded',
      legacyCode: 'FA2001',
      status: 429,
      message: errorCatalog.rate_limit_exceeded.message,
      details: [{ field: 'items[0].quantity', issue: 'too many' }],
      docsUrl: 'https://docs.fin.test/errors/rate_limit_exceeded',
      correlationId,
      retryAfterMs: 3000,
    });
    expect(apiError.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(apiError.headers['x-processing-time-ms']).toBe('4');
    expect(apiError.headers).not.toHaveProperty('set-cookie');
  });
});

describe('tolerant reader and broken bodies (spec sections 1 and 9)', () => {
  it('ignores unknown fields and exposes X-Processing-Time-Ms', async () => {
    answer(() =>
      ok(
        { authorizationId: 'auth-1', status: 'CONFIRMED', contractId: 'c-1', futureField: { x: 1 } },
        { headers: { 'X-Processing-Time-Ms': '12' } },
      ),
    );
    const result = await confirm();
    // FIT-5: a server showing only contractId (spec section 5) decodes to an empty plan, never undefined.
    expect(result.data).toEqual({
      authorizationId: 'auth-1',
      status: 'CONFIRMED',
      contractId: 'c-1',
      installments: [],
    });
    expect(result.meta).toMatchObject({ status: 200, processingTimeMs: 12, message: 'ok' });
  });

  it('a response that breaks the schema is a FinResponseValidationError naming the field and the endpoint', async () => {
    answer(() => ok({ authorizationId: 'auth-1', status: 'CONFIRMED', contractId: 42 }));
    const error = await confirm().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinResponseValidationError);
    expect(error).toMatchObject({
      endpoint: 'POST /v1/sales/auth-1/confirm',
      status: 200,
      issues: [expect.objectContaining({ path: 'data.contractId' })],
    });
    expect((error as Error).message).toContain('data.contractId');
  });

  it('an error body that is not an error envelope names the broken field', async () => {
    answer(() => HttpResponse.json({ success: false, message: 'x', data: null }, { status: 400 }));
    await expect(confirm()).rejects.toMatchObject({
      name: 'FinResponseValidationError',
      status: 400,
      issues: expect.arrayContaining([expect.objectContaining({ path: 'timestamp' })]),
    });
  });

  it.each([
    ['not JSON', '<html>Bad gateway</html>'],
    ['truncated JSON', '{"success":true,"message":"","timestamp":"2026-'],
  ])('a body that is %s is a FinResponseParseError naming the endpoint', async (_, text) => {
    answer(() => new HttpResponse(text, { status: 200, headers: { 'Content-Type': 'application/json' } }));
    const error = await confirm().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinResponseParseError);
    expect(error).toMatchObject({ endpoint: 'POST /v1/sales/auth-1/confirm', status: 200 });
  });

  it('a 2xx envelope with success: false is still an API error', async () => {
    answer(() => fail('imei_already_financed', { status: 200 }));
    await expect(confirm()).rejects.toMatchObject({ code: 'imei_already_financed', status: 422 });
  });
});
