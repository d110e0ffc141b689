// Issue 14 §3 on the PosClient: per-call overrides, lastResponse metadata, User-Agent / appInfo / defaultHeaders.
import { readFileSync } from 'node:fs';
import { FinInputError, FinTimeoutError, isFinApiError } from '@fin/core';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startPartner } from './fixtures.js';

const partner = startPartner({ size: { stores: 1, productsPerStore: 20, employees: 5 }, rateLimit: false });
afterAll(partner.close);
const { sim, server } = partner;
const storeId = sim.data.stores[0]?.storeId ?? '';
const sku = sim.data.products(storeId)[0]?.product.sku ?? '';
beforeEach(() => sim.faults.clear());
afterEach(() => server.events.removeAllListeners());

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The headers of every request the partner receives. */
function headersSeen() {
  const seen: Headers[] = [];
  server.events.on('request:start', ({ request }) => {
    seen.push(request.headers);
  });
  return seen;
}

describe('per-call maxRetries and timeoutMs override the client’s', () => {
  test('maxRetries: 0 on one read lets a 503 reach the caller; the next read retries through one', async () => {
    const pos = partner.client({ random: () => 0 });
    sim.faults.serverErrors({ endpoint: 'GET /v1/stock', count: 1, status: 503 });
    const error = await pos
      .store(storeId)
      .stock.get(sku, { maxRetries: 0 })
      .catch((e) => e);
    expect(isFinApiError(error, 'service_unavailable')).toBe(true);
    expect(error.requestIds).toHaveLength(1);

    sim.faults.serverErrors({ endpoint: 'GET /v1/stock', count: 1, status: 503 });
    const stock = await pos.store(storeId).stock.get(sku);
    expect(stock.lastResponse.attempts).toBe(2);
    expect(stock.lastResponse.requestIds).toHaveLength(2);
  });

  test('timeoutMs on one read ends a slow attempt with a FinTimeoutError naming that limit', async () => {
    sim.faults.slowResponses({ endpoint: 'GET /v1/plans', count: 1, delayMs: 30_000 });
    const error = await partner
      .client()
      .store(storeId)
      .plans.list({ timeoutMs: 30, maxRetries: 0 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(FinTimeoutError);
    expect(error).toMatchObject({ scope: 'attempt', timeoutMs: 30 });
  });

  test('list options carry the overrides to each page', async () => {
    sim.faults.serverErrors({ endpoint: 'GET /v1/stores', count: 1, status: 503 });
    const error = await partner
      .client()
      .stores.list({ maxRetries: 0 })
      .toArray()
      .catch((e) => e);
    expect(isFinApiError(error, 'service_unavailable')).toBe(true);
  });
});

describe('lastResponse on every result', () => {
  test('a read’s result carries its request id, processing time and headers, outside its enumerable data', async () => {
    const seen = headersSeen();
    const stock = await partner.client().store(storeId).stock.get(sku);
    expect(stock.lastResponse.requestId).toBe(seen.at(-1)?.get('x-request-id'));
    expect(stock.lastResponse.processingTimeMs).toEqual(expect.any(Number));
    expect(stock.lastResponse.headers['x-request-id']).toBe(stock.lastResponse.requestId);
    expect(Object.keys(stock)).not.toContain('lastResponse');
  });

  test('lists, the seller login and a search without sales (the partner’s 404) carry theirs', async () => {
    const pos = partner.client();
    const plans = await pos.store(storeId).plans.list();
    expect(plans.lastResponse.status).toBe(200);
    const seller = sim.data.sellers[0];
    if (!seller) throw new Error('the simulated partner has sellers');
    const login = await pos.sellers.login({ cpf: seller.cpf, password: seller.password });
    expect(login.lastResponse.requestId).toEqual(expect.any(String));
    const none = await pos.sales.search({ imei: '490154203237518' });
    expect(none).toEqual([]);
    expect(none.lastResponse).toMatchObject({ status: 404, attempts: 1 });
  });
});

describe('User-Agent, appInfo and defaultHeaders', () => {
  test('every request names fin-pos-client and its version, Node, then the app', async () => {
    const seen = headersSeen();
    const pos = partner.client({
      appInfo: { name: 'financing-service', version: '3.0.0' },
      defaultHeaders: { 'X-Partner-Contract': 'c-77' },
    });
    await pos.store(storeId).stock.get(sku);
    expect(seen.length).toBeGreaterThan(1);
    for (const headers of seen) {
      expect(headers.get('user-agent')).toBe(
        `fin-pos-client/${version} node/${process.versions.node} financing-service/3.0.0`,
      );
      expect(headers.get('x-partner-contract')).toBe('c-77');
    }
  });

  test('defaultHeaders cannot name Authorization, X-Request-Id or Idempotency-Key', () => {
    for (const name of ['authorization', 'X-REQUEST-ID', 'Idempotency-Key']) {
      expect(() => partner.client({ defaultHeaders: { [name]: 'x' } })).toThrow(FinInputError);
    }
  });
});
