// Faults between the financing service and the partner POS: every read and the whole sync end typed or correct, in time.
import { PosClient, syncCatalog } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FaultServer, faults, startFaultServer } from './support/fault-server.js';
import { guardSecrets } from './support/secret-guard.js';
import { FAULT_DEADLINE_MS, FAULT_SLACK_MS, faultTiming, isTypedError, settle } from './support/settle.js';
import { failOnUnhandledRejections } from './support/unhandled.js';

failOnUnhandledRejections();
const guard = guardSecrets();
const sim = createSimulatedPos({
  seed: 3,
  size: { stores: 2, productsPerStore: 40, employees: 30 },
  rateLimit: false,
});
const store = sim.data.stores[0]!;
const entry = sim.data.products(store.storeId)[0]!;
const device = sim.data.devices({ storeId: store.storeId })[0]!;
const seller = sim.data.sellers[0]!;
guard.add('client secret', sim.credentials.clientSecret);
guard.add('password', ...sim.data.sellers.map((s) => s.password));
guard.add('cpf', ...sim.data.sellers.map((s) => s.cpf));
guard.add('imei', device.imei);

let server: FaultServer;
let pos: PosClient;

beforeAll(async () => {
  server = await startFaultServer(sim.fetch);
  pos = new PosClient({
    baseUrl: server.url,
    ...sim.credentials,
    fetch: guard.sniffTokens(fetch),
    logger: guard.logger,
    ...faultTiming,
  });
});

afterAll(async () => {
  await server.close();
});

// A call that ends typed before its planned faults are used up leaves the rest queued: the next test starts clean.
afterEach(() => server.plan([]));

/** Every real-time call of the Partner POS API, each with the check of a correct answer. */
const calls: Record<
  string,
  { path: string; run: () => Promise<unknown>; correct: (value: unknown) => boolean }
> = {
  stock: {
    path: '/v1/stock',
    run: () => pos.store(store.storeId).stock.get(entry.product.sku),
    correct: (value) => (value as { sku: string }).sku === entry.product.sku,
  },
  barcode: {
    path: '/v1/products/barcode',
    run: () => pos.store(store.storeId).products.byBarcode(entry.barcode),
    correct: (value) => (value as { sku: string }).sku === entry.product.sku,
  },
  imei: {
    path: '/v1/imei/validate',
    run: () => pos.store(store.storeId).imei.validate(device.imei),
    correct: (value) => (value as { imeiValid: boolean }).imeiValid === true,
  },
  search: {
    path: '/v1/sales/search',
    run: () => pos.sales.search({ imei: device.imei }),
    correct: (value) => Array.isArray(value),
  },
  login: {
    path: '/v1/sellers/session',
    run: () => pos.sellers.login({ cpf: seller.cpf, password: seller.password }),
    correct: (value) => (value as { authorized: boolean }).authorized === true,
  },
  plans: {
    path: '/v1/plans',
    run: () => pos.store(store.storeId).plans.list(),
    correct: (value) => Array.isArray(value) && value.length > 0,
  },
};

describe('faults on the partner POS (resets, hangs, 5xx bursts, 429 storms, truncated and malformed JSON)', () => {
  it('any fault sequence on any real-time call ends in a typed error or a correct answer, within the deadline', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(calls)),
        fc.array(fc.constantFrom(...faults), { maxLength: 4 }),
        fc.boolean(),
        async (name, sequence, onToken) => {
          const call = calls[name]!;
          if (onToken) sim.tokens.revoke();
          server.plan(sequence, (path) => path === (onToken ? '/v1/oauth/token' : call.path));
          const outcome = await settle(call.run(), FAULT_DEADLINE_MS + FAULT_SLACK_MS);
          if (outcome.ok) expect(call.correct(outcome.value), name).toBe(true);
          else expect(isTypedError(outcome.error), `${name}: ${String(outcome.error)}`).toBe(true);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('a catalog sync hit by faults in the middle resolves complete or rejects typed, within its deadline', async () => {
    const listPaths = new Set(['/v1/employees', '/v1/stores', '/v1/products', '/v1/services', '/v1/plans']);
    const clean = await syncCatalog(pos);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...faults), { minLength: 1, maxLength: 3 }),
        async (sequence) => {
          server.plan(sequence, (path) => listPaths.has(path));
          const outcome = await settle(syncCatalog(pos), (FAULT_DEADLINE_MS + FAULT_SLACK_MS) * 4);
          if (outcome.ok) expect(outcome.value.snapshot.products.length).toBe(clean.snapshot.products.length);
          else expect(isTypedError(outcome.error), String(outcome.error)).toBe(true);
        },
      ),
      { numRuns: 10 },
    );
  });
});
