// The financing service the bench loads: one client owning the bench store, a credit engine that always approves.
import { type CreditEngine, createFinancingService, type Store } from '@fin/server-kit';
import { BENCH_STORE_ID } from '../lib/cart.js';

export const BENCH_CLIENT = { clientId: 'bench-pos', clientSecret: 'bench-secret-not-for-production' };

/** Approves every analysis for the cart's own total, so each fresh IMEI gets `authorized: true`. */
const approveAll: CreditEngine = {
  analyze: async ({ amount }) => ({ approved: true, amount, installments: 10 }),
};

/** Per-minute write limit high enough that a load run measures the path, not the 429 answer. */
export const BENCH_WRITE_LIMIT = 100_000_000;

export function benchService(store: Store) {
  return createFinancingService({
    clients: [{ ...BENCH_CLIENT, scopes: ['sales:authorize'], storeIds: [BENCH_STORE_ID] }],
    credit: approveAll,
    store,
    limits: { writesPerMinute: BENCH_WRITE_LIMIT },
  });
}
