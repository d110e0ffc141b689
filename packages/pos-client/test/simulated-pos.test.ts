// The simulated partner itself (@fin/pos-client/testing): seeded data, the spec's checks on raw HTTP, and its controls.
import { cnpj, cpf, imei, nfeKey, schemas } from '@fin/core';
import { createSimulatedPos, posEndpoints } from '@fin/pos-client/testing';
import { afterAll, describe, expect, test } from 'vitest';
import { BASE_URL, startPartner } from './fixtures.js';

const now = new Date('2026-05-04T12:00:00.000Z');
const partner = startPartner({
  size: { stores: 3, productsPerStore: 150, employees: 120 },
  clock: { now: () => now },
});
afterAll(partner.close);
const { sim } = partner;

const ids = () => ({ 'x-request-id': crypto.randomUUID(), 'x-correlation-id': crypto.randomUUID() });

async function systemToken(scope?: string) {
  const { clientId, clientSecret } = sim.credentials;
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  if (scope) form.set('scope', scope);
  const response = await fetch(`${BASE_URL}/v1/oauth/token`, { method: 'POST', body: form });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

describe('seeded data set', () => {
  test('the same seed gives the same partner; another seed another', () => {
    const size = { stores: 2, productsPerStore: 30, employees: 20 };
    const a = createSimulatedPos({ seed: 7, size });
    const b = createSimulatedPos({ seed: 7, size });
    const c = createSimulatedPos({ seed: 8, size });
    expect(b.data.sellers).toEqual(a.data.sellers);
    expect(b.data.devices()).toEqual(a.data.devices());
    expect(b.data.sales).toEqual(a.data.sales);
    expect(c.data.sellers).not.toEqual(a.data.sellers);
  });

  test('identifiers pass their check digits: CPFs, CNPJs, Luhn IMEIs, 44-digit NF-e keys', () => {
    expect(sim.data.sellers.every((seller) => cpf.isValid(seller.cpf))).toBe(true);
    expect(new Set(sim.data.sellers.map((seller) => seller.cpf)).size).toBe(120);
    expect(sim.data.stores.every((store) => cnpj.isValid(store.cnpj))).toBe(true);
    expect(sim.data.devices().every((device) => imei.isValid(device.imei))).toBe(true);
    const keys = sim.data.sales.flatMap((record) => record.sale.nfeAccessKey ?? []);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((key) => nfeKey.isValid(key) && /^[0-9]{44}$/.test(key))).toBe(true);
  });

  test('sizes, shelves and sales: devices in and out of stock, a sale in each status', () => {
    expect(sim.data.stores).toHaveLength(3);
    expect(sim.data.products(sim.data.stores[0]!.storeId)).toHaveLength(150);
    expect(sim.data.devices({ inStock: true }).length).toBeGreaterThan(0);
    expect(sim.data.devices({ inStock: false }).length).toBeGreaterThan(0);
    expect(new Set(sim.data.sales.map((record) => record.sale.status))).toEqual(
      new Set(['PENDING', 'ACTIVE', 'CANCELLED']),
    );
    for (const record of sim.data.sales) expect(schemas.saleStatus.parse(record.sale)).toEqual(record.sale);
  });
});

describe('the spec on raw HTTP', () => {
  test('token issuance: client_credentials answers Bearer for 3600 s with the scopes granted', async () => {
    const { response, body } = await systemToken('catalog:read');
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'catalog:read' });
  });

  test('RFC 6749 2.3.1 and 5.1: HTTP Basic client authentication is accepted, and no token answer is cached', async () => {
    const { clientId, clientSecret } = sim.credentials;
    const token = (form: Record<string, string>, secret = clientSecret) =>
      fetch(`${BASE_URL}/v1/oauth/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${clientId}:${encodeURIComponent(secret)}`)}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', ...form }),
      });
    const issued = await token({});
    expect(await issued.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    const wrongSecret = await token({}, 'wrong');
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(await wrongSecret.json()).toMatchObject({ error: 'invalid_client' });
    const bothMethods = await token({ client_secret: clientSecret });
    expect(bothMethods.status).toBe(400);
    expect(await bothMethods.json()).toMatchObject({ error: 'invalid_request', code: 'bad_request' });
    const refusedScope = (await systemToken('sales:authorize')).response;
    for (const answer of [issued, wrongSecret, bothMethods, refusedScope, (await systemToken()).response]) {
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('pragma')).toBe('no-cache');
    }
  });

  test('a scope the client does not hold is refused as invalid_scope', async () => {
    const { response, body } = await systemToken('sales:authorize');
    expect(response.status).toBe(400);
    expect(body).toMatchObject({ error: 'invalid_scope', success: false, code: 'invalid_scope' });
  });

  test('missing_token, invalid_token, expired_token and insufficient_scope, each with the error envelope', async () => {
    const url = `${BASE_URL}/v1/stores`;
    const codeOf = async (headers: Record<string, string>) => {
      const response = await fetch(url, { headers: { ...ids(), ...headers } });
      const body = (await response.json()) as { success: boolean; data: null; error: { code: string } };
      expect(body).toMatchObject({ success: false, data: null });
      return [response.status, body.error.code];
    };
    expect(await codeOf({})).toEqual([401, 'missing_token']);
    expect(await codeOf({ authorization: 'Bearer forged' })).toEqual([401, 'invalid_token']);
    const inventoryOnly = (await systemToken('inventory:read')).body.access_token as string;
    expect(await codeOf({ authorization: `Bearer ${inventoryOnly}` })).toEqual([403, 'insufficient_scope']);
    sim.tokens.expire();
    expect(await codeOf({ authorization: `Bearer ${inventoryOnly}` })).toEqual([401, 'expired_token']);
  });

  test('X-Request-Id is echoed in header and body; X-Processing-Time-Ms is a header, never in the body', async () => {
    const token = (await systemToken()).body.access_token as string;
    const headers = { ...ids(), authorization: `Bearer ${token}` };
    const response = await fetch(`${BASE_URL}/v1/stores`, { headers });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.headers.get('x-request-id')).toBe(headers['x-request-id']);
    expect(body.requestId).toBe(headers['x-request-id']);
    expect(Number(response.headers.get('x-processing-time-ms'))).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(body)).not.toMatch(/processing/i);
    expect(body.timestamp).toBe(now.toISOString());
  });

  test('a call without uuid X-Request-Id and X-Correlation-Id is 400 invalid_request_id', async () => {
    const token = (await systemToken()).body.access_token as string;
    const response = await fetch(`${BASE_URL}/v1/stores`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_request_id' } });
  });

  test.each([
    ['/v1/plans', ''],
    ['/v1/products', 'planId=plan-1'],
    ['/v1/products/barcode', 'barcode=7890000000001'],
    ['/v1/services', 'sku=SM-000001'],
    ['/v1/stock', 'sku=SM-000001'],
    ['/v1/imei/validate', 'imei=490154203237518'],
  ])(
    'R-01: %s without storeId, or with an empty or blank one, is 400 store_context_required',
    async (path, query) => {
      const token = (await systemToken()).body.access_token as string;
      for (const store of [undefined, '', '%20%20', '%09']) {
        const storeQuery = store === undefined ? '' : `storeId=${store}`;
        const search = [storeQuery, query].filter(Boolean).join('&');
        const response = await fetch(`${BASE_URL}${path}?${search}`, {
          headers: { ...ids(), authorization: `Bearer ${token}` },
        });
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({
          error: { code: 'store_context_required', legacyCode: 'FA1006' },
        });
      }
    },
  );

  test('an unknown path is 404 and a wrong method 405', async () => {
    expect((await fetch(`${BASE_URL}/v1/nothing`)).status).toBe(404);
    expect((await fetch(`${BASE_URL}/v1/stores`, { method: 'DELETE' })).status).toBe(405);
  });

  test('a 405 names the methods its path has (RFC 9110); at the token path it is never cached either (RFC 6749 5.1)', async () => {
    const own = createSimulatedPos({ size: { stores: 1, productsPerStore: 5, employees: 2 } });
    const at = (path: string, method: string) => own.fetch(`https://partner.test/api${path}`, { method });
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']) {
      const token = await at('/v1/oauth/token', method);
      expect(token.status).toBe(405);
      expect(token.headers.get('allow')).toBe('POST');
      expect(token.headers.get('cache-control')).toBe('no-store');
      expect(token.headers.get('pragma')).toBe('no-cache');
    }
    const stores = await at('/v1/stores', 'DELETE');
    expect(stores.status).toBe(405);
    expect(stores.headers.get('allow')).toBe('GET');
    expect(stores.headers.get('cache-control')).toBeNull();
    const unknown = await at('/v1/oauth/tokens', 'GET');
    expect(unknown.status).toBe(404);
    expect([unknown.headers.get('allow'), unknown.headers.get('cache-control')]).toEqual([null, null]);
  });

  test('an injected fault at the token path is never cached either (RFC 6749 5.1); one elsewhere says nothing of caching', async () => {
    const own = createSimulatedPos({ size: { stores: 1, productsPerStore: 5, employees: 2 } });
    const tokenForm = { grant_type: 'client_credentials', ...own.credentials };
    const askToken = () =>
      own.fetch('https://partner.test/api/v1/oauth/token', {
        method: 'POST',
        body: new URLSearchParams(tokenForm),
      });
    own.faults.malformedJson({ endpoint: 'POST /v1/oauth/token' });
    own.faults.serverErrors({ endpoint: 'POST /v1/oauth/token', status: 502, after: 1 });
    const cutOff = await askToken();
    const gateway = await askToken();
    expect([cutOff.status, gateway.status]).toEqual([200, 502]);
    await expect(cutOff.json()).rejects.toThrow();
    for (const answer of [cutOff, gateway]) {
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('pragma')).toBe('no-cache');
    }
    own.faults.malformedJson({ endpoint: 'GET /v1/stores' });
    const stores = await own.fetch('https://partner.test/api/v1/stores', { headers: ids() });
    expect(stores.status).toBe(200);
    expect(stores.headers.get('cache-control')).toBeNull();
  });

  test('the request log counts per endpoint and status; the fifteen endpoints (eleven of v1.0, four reservation ones of v1.1) are named', () => {
    expect(posEndpoints).toHaveLength(15);
    expect(sim.requests.count({ endpoint: 'POST /v1/oauth/token', status: 200 })).toBeGreaterThan(0);
    expect(sim.requests.count({ status: 405 })).toBe(1);
  });
});

describe('sale controls (for cancellation and confirmation tests)', () => {
  const customer = '52998224725';

  test('register a sale for an IMEI and CPF, invoice it, cancel it: search reads each state', () => {
    const device = sim.data.devices({ inStock: true })[0]!;
    const pending = sim.sales.register({ imei: device.imei, taxId: customer });
    expect(pending).toMatchObject({ status: 'PENDING', imei: device.imei, cancellationDate: null });
    expect(pending.nfeAccessKey).toBeUndefined();
    expect(sim.data.devices({ inStock: false }).map((d) => d.imei)).toContain(device.imei);

    const active = sim.sales.setStatus({ imei: device.imei }, 'ACTIVE');
    expect(active).toMatchObject({ status: 'ACTIVE', saleNumber: pending.saleNumber });
    expect(nfeKey.isValid(active.nfeAccessKey)).toBe(true);
    expect(active.invoiceNumber).toEqual(expect.any(String));

    const cancelled = sim.sales.setStatus({ saleNumber: pending.saleNumber }, 'CANCELLED');
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cancellationDate: now.toISOString() });
    expect(cancelled.nfeAccessKey).toBe(active.nfeAccessKey);
    expect(sim.sales.find({ taxId: customer })).toEqual([cancelled]);
    expect(sim.data.devices({ inStock: true }).map((d) => d.imei)).toContain(device.imei);
  });

  test('invoice data can be given (the numbers a confirm call sent)', () => {
    const device = sim.data.devices({ inStock: true })[1]!;
    const key = sim.data.sales.find((record) => record.sale.nfeAccessKey)!.sale.nfeAccessKey!;
    const sale = sim.sales.register({
      imei: device.imei,
      taxId: customer,
      status: 'ACTIVE',
      invoice: { invoiceNumber: '12345', nfeAccessKey: key },
    });
    expect(sale).toMatchObject({ status: 'ACTIVE', invoiceNumber: '12345', nfeAccessKey: key });
  });

  test('an IMEI the partner never had is added to a store as sold', () => {
    const storeId = sim.data.stores[2]!.storeId;
    const sale = sim.sales.register({ imei: '356938035643809', taxId: customer, storeId });
    expect(sale.status).toBe('PENDING');
    expect(sim.data.devices({ storeId }).map((d) => d.imei)).toContain('356938035643809');
  });
});
