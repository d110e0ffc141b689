// A whole sale journey against the sandbox handlers: authorize, confirm, cancel, exchange, logs.
import { AuthorizationClient, FinApiError, isExpired } from '@fin/authorization-client';
import { magicValues } from '@fin/authorization-client/testing';
import { SANDBOX_BASE_URL } from '@fin/authorization-client/testing/msw';
import type { LogEntry } from '@fin/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cart, NFE_KEY, sandboxClientOptions, useSandbox } from './fixtures.js';

const server = useSandbox();

/** Records the headers of every request the API receives, without answering it. */
function spy() {
  const seen: Array<{
    path: string;
    correlationId: string | null;
    idempotencyKey: string | null;
    scope?: string | null;
  }> = [];
  server.events.on('request:start', async ({ request }) => {
    const path = new URL(request.url).pathname;
    const scope =
      path === '/v1/oauth/token' ? new URLSearchParams(await request.clone().text()).get('scope') : undefined;
    seen.push({
      path,
      correlationId: request.headers.get('x-correlation-id'),
      idempotencyKey: request.headers.get('idempotency-key'),
      scope,
    });
  });
  return seen;
}
afterEach(() => server.events.removeAllListeners());

describe('sale journey', () => {
  it('authorize -> confirm with one X-Correlation-Id, a token with sales:authorize only', async () => {
    const seen = spy();
    const client = new AuthorizationClient(sandboxClientOptions);
    const journey = client.journey();

    const result = await journey.authorize(cart());
    expect(result.authorized).toBe(true);
    if (!result.authorized) return;
    expect(result).toMatchObject({
      status: 'AUTHORIZED',
      authorizationId: expect.any(String),
      message: expect.any(String),
    });
    expect(result.expiresAtDate).toBeInstanceOf(Date);
    expect(result.expiresAtDate.toISOString()).toBe(result.expiresAt);

    const confirmed = await journey.confirm(result.authorizationId, {
      saleNumber: 'V-1001',
      invoiceNumber: 'NF-555',
      nfeAccessKey: NFE_KEY,
      invoicedAt: new Date(),
    });
    expect(confirmed).toMatchObject({
      authorizationId: result.authorizationId,
      status: 'CONFIRMED',
      contractId: expect.any(String),
    });

    const calls = seen.filter((call) => call.path !== '/v1/oauth/token');
    expect(calls.map((call) => call.correlationId)).toEqual([journey.correlationId, journey.correlationId]);
    expect(calls.every((call) => call.idempotencyKey)).toBe(true);
    expect(seen.filter((call) => call.path === '/v1/oauth/token').map((call) => call.scope)).toEqual([
      'sales:authorize',
    ]);
  });

  it('R-07: a credit refusal is a returned value with declineReason, never an exception', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const result = await client.authorize(
      cart({ client: { name: 'Ana', taxId: magicValues.cpf.declined, phoneNumber: '11912345678' } }),
    );
    expect(result).toMatchObject({
      authorized: false,
      declineReason: magicValues.declineReason,
      message: expect.any(String),
    });
  });

  it('R-06: isExpired tells an authorization past its expiresAt (15 minutes)', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const result = await client.authorize(cart());
    if (!result.authorized) throw new Error('expected an approval');
    const issued = result.expiresAtDate.getTime() - 15 * 60_000;
    expect(isExpired(result, new Date(issued + 14 * 60_000))).toBe(false);
    expect(isExpired(result, new Date(result.expiresAtDate.getTime() - 1))).toBe(false);
    expect(isExpired(result, result.expiresAtDate)).toBe(true);
    expect(client.isExpired(result, new Date(result.expiresAtDate.getTime() + 1))).toBe(true);
  });

  it('exchange: cancel with EXCHANGE, then authorize the same device again', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const first = await client.authorize(cart());
    if (!first.authorized) throw new Error('expected an approval');
    await expect(client.authorize(cart())).rejects.toMatchObject({ code: 'imei_already_financed' });

    const cancelled = await client.cancel(first.authorizationId, { reason: 'EXCHANGE' });
    expect(cancelled).toEqual({
      authorizationId: first.authorizationId,
      status: 'CANCELLED',
      reason: 'EXCHANGE',
      verification: 'VERIFIED',
      financingCancelled: true,
    });
    // the same customer and store, so the original proposal is reused without a new analysis.
    await expect(client.authorize(cart())).resolves.toMatchObject({
      authorized: true,
      proposalReuse: { reused: true },
    });
  });

  it('confirm sends invoicedAt as toISOString, from a Date or a zoned ISO string, and refuses local time', async () => {
    const bodies: unknown[] = [];
    server.events.on('request:start', async ({ request }) => {
      if (request.url.endsWith('/confirm')) bodies.push(await request.clone().json());
    });
    const client = new AuthorizationClient(sandboxClientOptions);
    const invoice = { saleNumber: 'V-1', invoiceNumber: 'NF-1', nfeAccessKey: NFE_KEY };
    const approved = await client.authorize(cart());
    if (!approved.authorized) throw new Error('expected an approval');
    const at = new Date(Date.now() - 60_000);
    const offset = `${at.toISOString().slice(0, 19)}+00:00`;

    await client.confirm(approved.authorizationId, { ...invoice, invoicedAt: offset });
    expect(bodies[0]).toMatchObject({ invoicedAt: `${at.toISOString().slice(0, 19)}.000Z` });
    await expect(
      client.confirm(approved.authorizationId, { ...invoice, invoicedAt: '2026-03-02T10:00:00' }),
    ).rejects.toMatchObject({
      code: 'validation_error',
      details: [expect.objectContaining({ field: 'invoicedAt' })],
    });
    expect(bodies).toHaveLength(1);
  });

  it('an unknown authorization is authorization_not_found', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const error = await client
      .cancel('auth-unknown', { reason: 'CUSTOMER_REQUEST' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FinApiError);
    expect(error).toMatchObject({ code: 'authorization_not_found', status: 404, legacyCode: 'FA3004' });
  });

  it('a captured log of a full journey holds no CPF, IMEI, password, secret or token in clear', async () => {
    const entries: LogEntry[] = [];
    const tokens: string[] = [];
    server.events.on('response:mocked', async ({ response }) => {
      const body = await response.clone().text();
      const token = /"access_token":"([^"]+)"/.exec(body)?.[1];
      if (token) tokens.push(token);
    });
    const log = (entry: LogEntry) => entries.push(entry);
    const client = new AuthorizationClient({
      ...sandboxClientOptions,
      logger: { debug: log, info: log, warn: log, error: log },
    });
    const journey = client.journey();
    const approved = await journey.authorize(cart());
    if (!approved.authorized) throw new Error('expected an approval');
    await journey.confirm(approved.authorizationId, {
      saleNumber: 'V-9',
      invoiceNumber: 'NF-9',
      nfeAccessKey: NFE_KEY,
      invoicedAt: new Date(),
    });
    await journey.cancel(approved.authorizationId, { reason: 'EXCHANGE' });
    await journey.authorize(
      cart({ client: { name: 'Ana', taxId: magicValues.cpf.declined, phoneNumber: '11912345678' } }),
    );

    const text = JSON.stringify(entries);
    expect(entries.length).toBeGreaterThanOrEqual(10);
    expect(tokens).toHaveLength(1);
    for (const secret of [
      magicValues.cpf.approved,
      magicValues.cpf.declined,
      '98765432100',
      magicValues.imei.approved,
      magicValues.credentials.clientSecret,
      ...tokens,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('issue 12 edges: refused before sending, as the server would answer', () => {
  it('R-01: authorize with a missing, empty or blank storeId throws store_context_required (400) and sends nothing', async () => {
    const seen = spy();
    const client = new AuthorizationClient(sandboxClientOptions);
    for (const storeId of [undefined, '', '   ']) {
      const body = { ...cart(), storeId } as ReturnType<typeof cart>;
      await expect(client.authorize(body)).rejects.toMatchObject({
        code: 'store_context_required',
        status: 400,
        details: [{ field: 'storeId' }],
      });
    }
    expect(seen).toHaveLength(0);
  });

  it('C-18 and C-20: a negative price, a zero total or text with a NUL is a validation_error naming the field, and sends nothing', async () => {
    const seen = spy();
    const client = new AuthorizationClient(sandboxClientOptions);
    const base = cart();
    const negative = {
      ...base,
      items: [{ ...base.items[0]!, unitPrice: { amount: -1, currency: 'BRL' as const } }],
    };
    const zero = {
      ...base,
      totals: { ...base.totals, grandTotal: { amount: 0, currency: 'BRL' as const } },
    };
    const nul = { ...base, clientName: 'Maria\u0000' };
    const surrogate = {
      ...base,
      items: [{ ...base.items[0]!, name: 'Capa \uD800' }],
    };
    for (const [body, field] of [
      [negative, 'items.0.unitPrice.amount'],
      [zero, 'totals.grandTotal.amount'],
      [nul, 'clientName'],
      [surrogate, 'items.0.name'],
    ] as const) {
      await expect(client.authorize(body)).rejects.toMatchObject({
        code: 'validation_error',
        details: expect.arrayContaining([expect.objectContaining({ field })]),
      });
    }
    await expect(
      client.confirm('auth_x', {
        saleNumber: 'V\u0000',
        invoiceNumber: 'NF-1',
        nfeAccessKey: NFE_KEY,
        invoicedAt: new Date(),
      }),
    ).rejects.toMatchObject({ code: 'validation_error', details: [{ field: 'saleNumber' }] });
    expect(seen).toHaveLength(0);
  });
});

describe('test/live safety', () => {
  it('refuses a live_ client id against a declared sandbox, before any request', () => {
    const seen = spy();
    expect(
      () =>
        new AuthorizationClient({
          baseUrl: SANDBOX_BASE_URL,
          clientId: 'live_pos',
          clientSecret: 's',
          environment: 'sandbox',
        }),
    ).toThrow(expect.objectContaining({ code: 'invalid_client' }));
    expect(seen).toHaveLength(0);
  });

  it('refuses a test_ client id against a declared production, and production without https', () => {
    expect(
      () =>
        new AuthorizationClient({
          baseUrl: 'https://api.fin.example',
          clientId: 'test_pos',
          clientSecret: 's',
          environment: 'production',
        }),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_client',
        details: [expect.objectContaining({ field: 'clientId' })],
      }),
    );
    expect(
      () =>
        new AuthorizationClient({
          baseUrl: 'http://api.fin.example',
          clientId: 'live_pos',
          clientSecret: 's',
          environment: 'production',
        }),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_client',
        details: [expect.objectContaining({ field: 'baseUrl' })],
      }),
    );
  });

  it('a matching environment, or none declared, is accepted', async () => {
    const client = new AuthorizationClient({ ...sandboxClientOptions, environment: 'sandbox' });
    await expect(client.authorize(cart())).resolves.toMatchObject({ authorized: true });
    expect(
      () => new AuthorizationClient({ baseUrl: 'http://localhost:1', clientId: 'live_x', clientSecret: 's' }),
    ).not.toThrow();
  });

  it('wrong credentials surface as invalid_client from the token endpoint', async () => {
    const client = new AuthorizationClient({ ...sandboxClientOptions, clientSecret: 'wrong' });
    await expect(client.authorize(cart())).rejects.toMatchObject({
      name: 'FinApiError',
      code: 'invalid_client',
      status: 401,
    });
  });
});
