// A simulated partner POS on a test clock, with the PosClient the service takes as its SaleSearch (and StockHolds) port.

import { PosClient } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import type { ClientRegistration } from '@fin/server-kit';
import { PARTNER_A } from './harness.js';

/**
 * One store of a seeded partner. `posClient()` is a new reader of it (one per service instance, as in
 * production); `registration()` is partner A owning that store with that reader's sale search.
 */
export function simulatedPartner(clock: { now(): Date }, productsPerStore = 20) {
  const sim = createSimulatedPos({ clock, size: { stores: 1, productsPerStore, employees: 3 } });
  const storeId = sim.data.stores[0]!.storeId;
  const posClient = () =>
    new PosClient({
      baseUrl: 'http://partner-pos.test',
      ...sim.credentials,
      fetch: (input, init) => sim.fetch(new Request(input, init)),
      maxRetries: 0,
      rateLimit: false,
      scopes: ['sales:read', 'inventory:read'],
    });
  /** With `holds`, the same reader is the partner's stock holds too (issue 30). */
  const registration = (pos = posClient(), { holds = false } = {}): ClientRegistration => ({
    ...PARTNER_A,
    storeIds: [storeId],
    saleSearch: pos.sales,
    ...(holds ? { stockHolds: pos } : {}),
  });
  /** IMEIs of the store's handsets on the shelf. */
  const devices = sim.data.devices({ storeId, inStock: true }).map((device) => device.imei);
  return { sim, storeId, devices, posClient, registration };
}
