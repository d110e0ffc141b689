// Hostile input against the simulated partner POS: whatever arrives, never a 500, always an envelope with a catalog code.
import { createSimulatedPos } from '@fin/pos-client/testing';
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { answered, assertEnvelope } from './support/envelope-check.js';
import { headerValue, hostileBody, hostileQuery } from './support/hostile.js';
import { guardSecrets } from './support/secret-guard.js';
import { checkTokenForms } from './support/token-form-property.js';

const RUNS = 60;
const BASE = 'http://partner-pos.test';
const sim = createSimulatedPos({
  rateLimit: false,
  size: { stores: 2, productsPerStore: 60, employees: 20 },
});
const guard = guardSecrets();
const store = sim.data.stores[0]!;
const entry = sim.data.products(store.storeId)[0]!;
const device = sim.data.devices({ storeId: store.storeId })[0]!;
const seller = sim.data.sellers[0]!;
let token = '';

guard.add('client secret', sim.credentials.clientSecret);
guard.add('password', ...sim.data.sellers.map((s) => s.password));
guard.add('cpf', ...sim.data.sellers.map((s) => s.cpf));
guard.add('imei', device.imei);

const ids = () => ({ 'x-request-id': crypto.randomUUID(), 'x-correlation-id': crypto.randomUUID() });

beforeAll(async () => {
  const response = await sim.fetch(
    new Request(`${BASE}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', ...toForm(sim.credentials) }),
    }),
  );
  token = ((await response.json()) as { access_token: string }).access_token;
  guard.add('token', token);
});

function toForm(credentials: { clientId: string; clientSecret: string }) {
  return { client_id: credentials.clientId, client_secret: credentials.clientSecret };
}

const reads: { path: string; names: string[]; valid: Record<string, string> }[] = [
  { path: '/v1/employees', names: [], valid: {} },
  { path: '/v1/stores', names: [], valid: {} },
  { path: '/v1/plans', names: ['storeId'], valid: { storeId: store.storeId } },
  {
    path: '/v1/products',
    names: ['storeId', 'planId'],
    valid: { storeId: store.storeId, planId: entry.planIds[0]! },
  },
  {
    path: '/v1/products/barcode',
    names: ['storeId', 'barcode'],
    valid: { storeId: store.storeId, barcode: entry.barcode },
  },
  {
    path: '/v1/services',
    names: ['storeId', 'sku'],
    valid: { storeId: store.storeId, sku: entry.product.sku },
  },
  { path: '/v1/stock', names: ['storeId', 'sku'], valid: { storeId: store.storeId, sku: entry.product.sku } },
  {
    path: '/v1/imei/validate',
    names: ['storeId', 'imei'],
    valid: { storeId: store.storeId, imei: device.imei },
  },
];

const writes: { path: string; base: Record<string, string> }[] = [
  { path: '/v1/sellers/session', base: { cpf: seller.cpf, password: seller.password } },
  { path: '/v1/sales/search', base: { imei: device.imei } },
];

describe('hostile input to the simulated partner POS', () => {
  it.each(reads)(
    'GET $path: any query string answers an envelope with a catalog code, never a 500',
    async (read) => {
      await fc.assert(
        fc.asyncProperty(hostileQuery(read.names, read.valid), async (query) => {
          const response = await sim.fetch(
            new Request(`${BASE}${read.path}?${query}`, {
              headers: { authorization: `Bearer ${token}`, ...ids() },
            }),
          );
          assertEnvelope(await answered(response));
        }),
        { numRuns: RUNS },
      );
    },
  );

  it.each(writes)(
    'POST $path: any body answers an envelope with a catalog code, never a 500',
    async (write) => {
      await fc.assert(
        fc.asyncProperty(hostileBody(write.base), async (body) => {
          const response = await sim.fetch(
            new Request(`${BASE}${write.path}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...ids() },
              body,
            }),
          );
          assertEnvelope(await answered(response));
        }),
        { numRuns: RUNS },
      );
    },
  );

  it('any headers (bearer, ids, content type) on any endpoint answer an envelope, never a 500', async () => {
    const header = fc.option(headerValue, { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...reads.map((r) => r.path), ...writes.map((w) => w.path)),
        fc.record({
          authorization: fc.oneof(
            header,
            fc.constant(`Bearer ${token}`),
            headerValue.map((v) => `Bearer ${v}`),
          ),
          'x-request-id': fc.oneof(header, fc.uuid()),
          'x-correlation-id': fc.oneof(header, fc.uuid()),
          'content-type': fc.oneof(
            header,
            fc.constantFrom('application/json', 'text/plain', 'application/xml'),
          ),
        }),
        async (path, headers) => {
          const write = writes.find((w) => w.path === path);
          const defined = Object.fromEntries(
            Object.entries(headers).filter(([, v]) => v !== undefined),
          ) as Record<string, string>;
          const response = await sim.fetch(
            new Request(`${BASE}${path}?storeId=${store.storeId}`, {
              method: write ? 'POST' : 'GET',
              headers: defined,
              ...(write ? { body: JSON.stringify(write.base) } : {}),
            }),
          );
          assertEnvelope(await answered(response));
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it('POST /v1/oauth/token: any form answers a token or an RFC 6749 error with a catalog code, never a 500', async () => {
    await checkTokenForms(
      {
        fetch: sim.fetch,
        url: `${BASE}/v1/oauth/token`,
        clientId: sim.credentials.clientId,
        clientSecret: sim.credentials.clientSecret,
      },
      guard,
      RUNS * 2,
    );
  });
});
