// The financing service the bench loads: 50 partners (client ids) owning the bench store, a credit engine that always approves.
import type { CreditEngine, createFinancingService, Store } from '@fin/server-kit';
import { BENCH_STORE_ID } from '../lib/cart.js';

export const BENCH_CLIENT = { clientId: 'bench-pos', clientSecret: 'bench-secret-not-for-production' };

/** Partners of the many-partner rows: a big retailer's integrations, each its own client id. */
export const BENCH_PARTNERS = 50;

/** The `i`th partner's credentials: the first is `BENCH_CLIENT`, the hot partner of the one-client rows. */
export const benchClient = (i: number) =>
  i === 0 ? BENCH_CLIENT : { ...BENCH_CLIENT, clientId: `${BENCH_CLIENT.clientId}-${i}` };

/** Approves every analysis for the cart's own total, so each fresh IMEI gets `authorized: true`. */
const approveAll: CreditEngine = {
  analyze: async ({ amount }) => ({ approved: true, amount, installments: 10 }),
};

/**
 * Each partner's per-minute write limit, raised as a big retailer's contract would: high enough that a load
 * run measures the path, not the 429 answer, while every write still takes the limiter's count.
 */
export const BENCH_WRITE_LIMIT = 100_000_000;

/** `kit` is the server-kit build the target loaded (targets/server.ts), so the service is the shipped code. */
export function benchService(kit: { createFinancingService: typeof createFinancingService }, store: Store) {
  return kit.createFinancingService({
    clients: Array.from({ length: BENCH_PARTNERS }, (_, i) => ({
      ...benchClient(i),
      scopes: ['sales:authorize'],
      storeIds: [BENCH_STORE_ID],
    })),
    credit: approveAll,
    store,
    limits: { writesPerMinute: BENCH_WRITE_LIMIT },
  });
}
