// The financing service the bench loads: one client owning the bench store, a credit engine that always approves.
import type { CreditEngine, createFinancingService, Store } from '@fin/server-kit';
import { BENCH_STORE_ID } from '../lib/cart.js';

export const BENCH_CLIENT = { clientId: 'bench-pos', clientSecret: 'bench-secret-not-for-production' };

/** Approves every analysis for the cart's own total, so each fresh IMEI gets `authorized: true`. */
const approveAll: CreditEngine = {
  analyze: async ({ amount }) => ({ approved: true, amount, installments: 10 }),
};

/** Per-minute write limit high enough that a load run measures the path, not the 429 answer. */
export const BENCH_WRITE_LIMIT = 100_000_000;

/** `kit` is the server-kit build the target loaded (targets/server.ts), so the service is the shipped code. */
export function benchService(kit: { createFinancingService: typeof createFinancingService }, store: Store) {
  return kit.createFinancingService({
    clients: [{ ...BENCH_CLIENT, scopes: ['sales:authorize'], storeIds: [BENCH_STORE_ID] }],
    credit: approveAll,
    store,
    limits: { writesPerMinute: BENCH_WRITE_LIMIT },
  });
}
