// Issue 28 §2-§3 on the PosClient: per-call headers, `.withResponse()` on results and errors, `on('request' | 'response')`.
import { randomUUID } from 'node:crypto';
import { FinApiError, FinInputError } from '@fin/core';
import type { RequestEvent, ResponseEvent } from '@fin/pos-client';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { validCpf, validImei } from '../../../test/support/personal-data.js';
import { startPartner } from './fixtures.js';

const partner = startPartner({ size: { stores: 1, productsPerStore: 5, employees: 3 }, rateLimit: false });
afterAll(partner.close);
const { sim, server } = partner;
const storeId = sim.data.stores[0]?.storeId ?? '';
const sku = sim.data.products(storeId)[0]?.product.sku ?? '';
const seller = sim.data.sellers[0];
beforeEach(() => sim.faults.clear());
afterEach(() => server.events.removeAllListeners());

/** `METHOD /path` and one header of every request the partner receives. */
function headerSeen(name: string) {
  const seen: Array<[string, string | null]> = [];
  server.events.on('request:start', ({ request }) => {
    seen.push([`${request.method} ${new URL(request.url).pathname}`, request.headers.get(name)]);
  });
  return seen;
}

describe('per-call headers (issue 28 §2)', () => {
  test('travel on that call only, on reads, pages, searches and the seller login', async () => {
    const seen = headerSeen('x-audit');
    const pos = partner.client({ defaultHeaders: { 'X-Audit': 'default' } });
    const store = pos.store(storeId);
    await store.stock.get(sku, { headers: { 'X-Audit': 'stock' } });
    await store.plans.list();
    await pos.employees.list({ headers: { 'x-audit': 'pages' } }).toArray();
    await pos.sales.search({ taxId: '52998224725' }, { headers: { 'X-Audit': 'search' } });
    await pos.sellers.login(
      { username: seller?.username ?? '', password: seller?.password ?? '' },
      { headers: { 'X-Audit': 'login' } },
    );
    expect(seen.filter(([call]) => call !== 'POST /v1/oauth/token')).toEqual([
      ['GET /v1/stock', 'stock'],
      ['GET /v1/plans', 'default'],
      ['GET /v1/employees', 'pages'],
      ['POST /v1/sales/search', 'search'],
      ['POST /v1/sellers/session', 'login'],
    ]);
  });

  test.each(['Authorization', 'X-Request-Id', 'Idempotency-Key', 'X-Correlation-Id', 'user-agent'])(
    'naming %s is refused before sending, exactly as defaultHeaders refuses it',
    async (name) => {
      const seen = headerSeen('x-audit');
      const error = await partner
        .client()
        .store(storeId)
        .stock.get(sku, { headers: { [name]: 'mine' } })
        .catch((e) => e);
      expect(error).toBeInstanceOf(FinInputError);
      expect((error as FinInputError).details).toEqual([
        { field: `headers.${name}`, issue: expect.any(String) },
      ]);
      expect(seen).toEqual([]);
    },
  );
});

describe('.withResponse() (issue 28 §2)', () => {
  test('gives { data, response }: the fetch Response of the answer beside the parsed result', async () => {
    const { data, response } = await partner.client().store(storeId).stock.get(sku).withResponse();
    expect(data.sku).toBe(sku);
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe(data.lastResponse.requestId);
  });

  test('a sale search answered 404 (no sale) gives the 404 Response beside the empty list', async () => {
    const { data, response } = await partner
      .client()
      .sales.search({ imei: '356938035643809' })
      .withResponse();
    expect(data).toEqual([]);
    expect(response.status).toBe(404);
  });

  test('an error answer carries its Response as error.response', async () => {
    sim.faults.serverErrors({ endpoint: 'GET /v1/stock', count: 1, status: 503 });
    const error = await partner
      .client()
      .store(storeId)
      .stock.get(sku, { maxRetries: 0 })
      .withResponse()
      .catch((e) => e);
    expect(error).toBeInstanceOf(FinApiError);
    expect(error.response.status).toBe(503);
  });
});

describe('pos.on / off (issue 28 §3)', () => {
  test('every attempt: route template, ids, attempt, status and elapsed ms; a retry is a new attempt', async () => {
    const pos = partner.client({ random: () => 0 });
    const correlationId = randomUUID();
    const events: Array<[string, RequestEvent | ResponseEvent]> = [];
    pos.on('request', (event) => events.push(['request', event]));
    pos.on('response', (event) => events.push(['response', event]));
    sim.faults.serverErrors({ endpoint: 'GET /v1/stock', count: 1, status: 503 });
    const stock = await pos.store(storeId).stock.get(sku, { correlationId });
    const reads = events.filter(([, event]) => event.rate === 'read');
    expect(
      reads.map(([name, event]) => [name, event.route, event.attempt, (event as ResponseEvent).status]),
    ).toEqual([
      ['request', '/v1/stock', 1, undefined],
      ['response', '/v1/stock', 1, 503],
      ['request', '/v1/stock', 2, undefined],
      ['response', '/v1/stock', 2, 200],
    ]);
    for (const [, event] of reads) expect(event.correlationId).toBe(correlationId);
    expect(reads.filter(([name]) => name === 'response').map(([, e]) => e.requestId)).toEqual(
      stock.lastResponse.requestIds,
    );
    expect((reads[3]?.[1] as ResponseEvent | undefined)?.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  test('a listener that throws never breaks a call; off removes it', async () => {
    const pos = partner.client();
    const calls: string[] = [];
    const broken = () => {
      calls.push('broken');
      throw new Error('listener bug');
    };
    pos.on('response', broken);
    const plans = await pos.store(storeId).plans.list();
    expect(plans.length).toBeGreaterThan(0);
    pos.off('response', broken);
    await pos.store(storeId).plans.list();
    expect(calls).toEqual(['broken', 'broken']);
  });
});

describe('what a listener sees holds no personal data (issue 28 §3, property)', () => {
  test('random CPFs, IMEIs and passwords in searches, IMEI checks and logins never reach an event', async () => {
    const pos = partner.client();
    const seen: string[] = [];
    pos.on('request', (event) => seen.push(JSON.stringify(event)));
    pos.on('response', (event) => seen.push(JSON.stringify(event)));
    await fc.assert(
      fc.asyncProperty(
        validCpf,
        validImei,
        fc.stringMatching(/^[A-Za-z0-9]{8,20}$/),
        async (cpf, imei, password) => {
          seen.length = 0;
          const ignore = () => undefined;
          await pos.sales.search({ taxId: cpf }).catch(ignore);
          await pos.sales.search({ imei }).catch(ignore);
          await pos.store(storeId).imei.validate(imei).catch(ignore);
          await pos.sellers.login({ cpf, password }).catch(ignore);
          const text = seen.join('\n');
          expect(seen.length).toBeGreaterThan(0);
          for (const secret of [cpf, imei, `"${password}"`, sim.credentials.clientSecret, 'Bearer']) {
            expect(text).not.toContain(secret);
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});
