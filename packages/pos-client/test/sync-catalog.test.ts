// syncCatalog acceptance: 2 stores, 5,000 products, 1,000 employees, paced under 600 reads a minute; departures in the diff.
import { type CatalogSnapshot, syncCatalog } from '@fin/pos-client';
import type { SimulatedPos } from '@fin/pos-client/testing';
import { afterAll, describe, expect, test } from 'vitest';
import { inVirtualTime, startPartner } from './fixtures.js';

// 2 stores x 5,000 products, 1,000 employees. 400 smartphones a store make the sync about 860 reads,
// well over the 600 a minute the partner allows, so only client pacing can avoid 429s.
const partner = startPartner({
  size: { stores: 2, productsPerStore: 5000, smartphonesPerStore: 400, employees: 1000 },
  rateLimit: { reads: 600, windowMs: 60_000 },
});
afterAll(partner.close);
const { sim } = partner;
const day = 86_400_000;
const firstSyncAt = new Date('2026-05-04T03:00:00.000Z');

/** What the partner holds right now, keyed as the snapshot keys it. */
function partnerKeys(partnerSim: SimulatedPos) {
  const stores = partnerSim.data.stores.map((store) => store.storeId);
  return {
    employees: partnerSim.data.sellers.map((seller) => seller.cpf).sort(),
    plans: stores
      .flatMap((storeId) => partnerSim.data.plans.map((plan) => `${storeId}/${plan.planId}`))
      .sort(),
    products: stores
      .flatMap((storeId) =>
        partnerSim.data
          .products(storeId)
          .flatMap((entry) => entry.planIds.map((planId) => `${storeId}/${planId}/${entry.product.sku}`)),
      )
      .sort(),
    services: stores
      .flatMap((storeId) =>
        partnerSim.data
          .products(storeId)
          .filter((entry) => entry.product.productType === 'SMARTPHONE')
          .flatMap((entry) =>
            ['GE12', 'SRF', 'PTL'].map(
              (code) => `${storeId}/${entry.product.sku}/SV-${entry.product.sku}-${code}`,
            ),
          ),
      )
      .sort(),
  };
}

function snapshotKeys(snapshot: CatalogSnapshot) {
  return {
    employees: snapshot.employees.map((employee) => employee.cpf).sort(),
    plans: snapshot.plans.map((plan) => `${plan.storeId}/${plan.planId}`).sort(),
    products: snapshot.products
      .map((product) => `${product.storeId}/${product.planId}/${product.sku}`)
      .sort(),
    services: snapshot.services
      .map((service) => `${service.storeId}/${service.sku}/${service.serviceId}`)
      .sort(),
  };
}

// A ceiling for slow shared machines, not a timed assertion: virtual time makes the minutes of pacing instant.
describe('syncCatalog against a partner limited to 600 reads a minute', { timeout: 120_000 }, () => {
  let first: Awaited<ReturnType<typeof syncCatalog>>;

  test('client pacing: a sync of ~860 reads gets zero 429s and misses no item', async () => {
    sim.requests.clear();
    const progress: number[] = [];
    // The client is made inside virtual time: its pacer reads the (fake) Date.now it finds at creation.
    first = await inVirtualTime(
      () =>
        syncCatalog(partner.client({ rateLimit: undefined, maxRetries: 0 }), {
          onProgress: (event) => progress.push(event.pages),
        }),
      firstSyncAt,
    );
    const reads = sim.requests.all().filter((record) => record.endpoint !== 'POST /v1/oauth/token');
    expect(reads.length).toBeGreaterThan(800);
    expect(sim.requests.count({ status: 429 })).toBe(0);
    expect(reads.every((record) => record.status === 200)).toBe(true);
    expect(snapshotKeys(first.snapshot)).toEqual(partnerKeys(sim));
    expect(first.snapshot.stores).toEqual(sim.data.stores);
    expect(first.snapshot.products.every((product) => product.stock === undefined)).toBe(true);
    expect(first.pages).toBe(reads.length);
    expect(progress).toEqual(Array.from({ length: reads.length }, (_, i) => i + 1));
    expect(first.warnings).toEqual([]);
    expect(first.diff.employees.added).toHaveLength(1000);
    expect(first.diff.departures).toEqual([]);
  });

  test('spec section 6: employees absent from the next sync are departures; nothing else changed', async () => {
    const gone = sim.employees.remove({ count: 25 });
    sim.requests.clear();
    const second = await inVirtualTime(
      () =>
        syncCatalog(partner.client({ rateLimit: undefined, maxRetries: 0 }), { previous: first.snapshot }),
      new Date(firstSyncAt.getTime() + day),
    );
    expect(sim.requests.count({ status: 429 })).toBe(0);
    expect(second.diff.departures).toEqual(gone);
    expect(second.diff.employees).toEqual({ added: [], changed: [], removed: gone });
    for (const kind of ['stores', 'plans', 'products', 'services'] as const) {
      expect(second.diff[kind]).toEqual({ added: [], changed: [], removed: [] });
    }
    expect(second.snapshot.employees).toHaveLength(975);
  });

  test('control: without client pacing the same partner answers 429 (the limit is real)', async () => {
    sim.requests.clear();
    const unpaced = () => syncCatalog(partner.client({ rateLimit: false, maxRetries: 0 }));
    await expect(inVirtualTime(unpaced, new Date(firstSyncAt.getTime() + 2 * day))).rejects.toMatchObject({
      code: 'rate_limit_exceeded',
    });
    expect(sim.requests.count({ status: 429 })).toBeGreaterThan(0);
  });
});
