// Spec 1.3: the service reads the catalog sync's stores: a store the partner's latest sync lists may be sold from.
import { PosClient } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { catalogSyncJob, memoryStore } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { cart, harness, manualClock, PARTNER_A, PARTNER_B } from '../support/harness.js';

function setup() {
  const clock = manualClock();
  const store = memoryStore();
  const sim = createSimulatedPos({ seed: 7, clock, size: { stores: 2, productsPerStore: 10, employees: 4 } });
  const pos = new PosClient({
    baseUrl: 'http://partner-a.test',
    ...sim.credentials,
    fetch: (input, init) => sim.fetch(new Request(input, init)),
    maxRetries: 0,
    rateLimit: false,
  });
  const job = catalogSyncJob({ store, clock, partners: [{ partnerId: PARTNER_A.clientId, pos }] });
  const h = harness({ store }, clock);
  const syncedStoreId = sim.data.stores[1]!.storeId;
  return { h, job, syncedStoreId };
}

describe('stores from the catalog sync', () => {
  it('spec 1.3: a store only the latest sync lists is one of the partner’s stores; before the sync it is store_not_found', async () => {
    const { h, job, syncedStoreId } = setup();
    expect(PARTNER_A.storeIds).not.toContain(syncedStoreId);
    const before = await h.authorize(cart({ storeId: syncedStoreId }));
    expect(before.body.error.code).toBe('store_not_found');

    await job.runOnce();
    const after = await h.authorize(cart({ storeId: syncedStoreId }));
    expect(after.status).toBe(200);
    expect(after.body.data.authorized).toBe(true);
  });

  it('DESIGN 7: a store in neither the registration nor the sync stays store_not_found, and another partner never gets the synced ones', async () => {
    const { h, job, syncedStoreId } = setup();
    await job.runOnce();
    expect((await h.authorize(cart({ storeId: 'LJ-9999' }))).body.error.code).toBe('store_not_found');
    const other = await h.authorize(cart({ storeId: syncedStoreId }), { token: await h.token(PARTNER_B) });
    expect(other.body.error.code).toBe('store_not_found');
  });
});
