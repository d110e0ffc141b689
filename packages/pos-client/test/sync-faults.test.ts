// syncCatalog under 5xx bursts, slow and malformed pages, a list changing mid-read, and catalog changes in the diff.
import { FinResponseParseError } from '@fin/core';
import { type CatalogSnapshot, PaginationInconsistencyError, syncCatalog } from '@fin/pos-client';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { inVirtualTime, startPartner } from './fixtures.js';

const partner = startPartner({
  size: { stores: 2, productsPerStore: 300, smartphonesPerStore: 12, employees: 450 },
});
afterAll(partner.close);
const { sim } = partner;
beforeEach(() => {
  sim.faults.clear();
  sim.requests.clear();
});

const sync = (options: Parameters<typeof syncCatalog>[1] = {}) =>
  inVirtualTime(() => syncCatalog(partner.client({ rateLimit: undefined }), options));

/** Item counts the partner holds now: the snapshot must match them exactly. */
const expectedCounts = () => ({
  employees: sim.data.sellers.length,
  stores: sim.data.stores.length,
  plans: sim.data.stores.length * sim.data.plans.length,
  products: sim.data.stores.reduce(
    (sum, store) => sum + sim.data.products(store.storeId).reduce((n, entry) => n + entry.planIds.length, 0),
    0,
  ),
  services: sim.data.stores.length * 12 * 3,
});

const counts = (snapshot: CatalogSnapshot) => ({
  employees: snapshot.employees.length,
  stores: snapshot.stores.length,
  plans: snapshot.plans.length,
  products: snapshot.products.length,
  services: snapshot.services.length,
});

describe('syncCatalog under faults', () => {
  test('5xx bursts and slow pages: the sync retries through them and completes with every item', async () => {
    sim.faults.serverErrors({ endpoint: 'GET /v1/employees', after: 1, count: 2, status: 503 });
    sim.faults.serverErrors({ endpoint: 'GET /v1/products', after: 2, count: 2, status: 500 });
    sim.faults.serverErrors({ endpoint: 'GET /v1/services', after: 5, count: 2, status: 502 });
    sim.faults.slowResponses({ endpoint: 'GET /v1/products', after: 4, count: 3, delayMs: 4_000 });
    // Longer than the 10 s attempt timeout: the attempt is abandoned and retried.
    sim.faults.slowResponses({ endpoint: 'GET /v1/stores', count: 1, delayMs: 15_000 });
    const result = await sync();
    expect(counts(result.snapshot)).toEqual(expectedCounts());
    expect(sim.requests.count({ status: 503 }) + sim.requests.count({ status: 500 })).toBe(4);
    expect(sim.requests.count({ status: 502 })).toBe(2);
    expect(sim.requests.count({ endpoint: 'GET /v1/stores', status: 499 })).toBe(1);
    expect(sim.requests.count({ endpoint: 'GET /v1/stores', status: 200 })).toBe(1);
  });

  test('malformed JSON fails the sync with a typed error naming the endpoint, and no snapshot', async () => {
    sim.faults.malformedJson({ endpoint: 'GET /v1/products', after: 3 });
    const outcome = await sync().catch((caught: unknown) => caught);
    expect(outcome).toBeInstanceOf(FinResponseParseError);
    expect(outcome).toMatchObject({ endpoint: 'GET /v1/products', status: 200 });
    expect((outcome as Error).message).toContain('GET /v1/products');
  });

  test('a 5xx burst longer than the retries fails the sync with the partner’s typed error', async () => {
    sim.faults.serverErrors({ endpoint: 'GET /v1/plans', count: 3 });
    await expect(sync()).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });
  });
});

describe('syncCatalog and a list that changes while it is read', () => {
  test('employees dismissed mid-read: the list is read again and the snapshot is complete, with a warning', async () => {
    let dismissed = false;
    const result = await sync({
      onProgress: (event) => {
        if (event.resource === 'employees' && event.page === 1 && !dismissed) {
          dismissed = true;
          sim.employees.remove({ count: 3 });
        }
      },
    });
    expect(result.snapshot.employees.map((employee) => employee.cpf)).toEqual(
      sim.data.sellers.map((seller) => seller.cpf),
    );
    expect(result.warnings).toEqual([
      expect.objectContaining({ kind: 'relisted', endpoint: 'GET /v1/employees', reason: 'total-changed' }),
    ]);
  });

  test('a list that never holds still fails the sync with PaginationInconsistencyError', async () => {
    const result = sync({
      maxRelists: 1,
      onProgress: (event) => {
        if (event.resource === 'employees') sim.employees.hire({ count: 1 });
      },
    });
    await expect(result).rejects.toBeInstanceOf(PaginationInconsistencyError);
  });
});

describe('the diff between two syncs', () => {
  test('added, changed and removed products and services; hires are added employees', async () => {
    const [store] = sim.data.stores;
    const first = await sync({ storeIds: [store!.storeId] });
    const accessory = sim.data
      .products(store!.storeId)
      .find((entry) => entry.product.productType === 'ACCESSORY')!;
    const phone = sim.data
      .products(store!.storeId)
      .find((entry) => entry.product.productType === 'SMARTPHONE')!;
    sim.catalog.updateProduct(store!.storeId, accessory.product.sku, {
      price: { amount: 1990, currency: 'BRL' },
    });
    sim.catalog.removeProduct(store!.storeId, phone.product.sku);
    const hired = sim.employees.hire({ count: 2 });
    const second = await sync({ storeIds: [store!.storeId], previous: first.snapshot });
    expect(second.diff.products.changed).toEqual([
      {
        before: expect.objectContaining({ sku: accessory.product.sku }),
        after: expect.objectContaining({
          sku: accessory.product.sku,
          price: { amount: 1990, currency: 'BRL' },
        }),
      },
    ]);
    expect(second.diff.products.removed).toHaveLength(3);
    expect(second.diff.products.removed.every((product) => product.sku === phone.product.sku)).toBe(true);
    expect(second.diff.services.removed).toHaveLength(3);
    expect(second.diff.employees.added.map((employee) => employee.cpf).sort()).toEqual(
      hired.map((seller) => seller.cpf).sort(),
    );
    expect(second.diff.departures).toEqual([]);
    expect(second.snapshot.storeIds).toEqual([store!.storeId]);
  });

  test('a snapshot that went through JSON storage compares equal to a fresh one', async () => {
    const first = await sync();
    const stored = JSON.parse(JSON.stringify(first.snapshot)) as CatalogSnapshot;
    const second = await sync({ previous: stored });
    for (const kind of ['employees', 'stores', 'plans', 'products', 'services'] as const) {
      expect(second.diff[kind]).toEqual({ added: [], changed: [], removed: [] });
    }
  });
});
