// The service `pnpm bench soak` loads: the bench partner with a sale search that shows every sale cancelled, webhooks to a receiver that always answers, every retention about a minute, and its purge, expiry and delivery running in this process.
import type { createFinancingService, Store } from '@fin/server-kit';
import { BENCH_STORE_ID } from '../lib/cart.js';
import { BENCH_CLIENT, BENCH_WRITE_LIMIT } from './bench-service.js';

const MINUTE = 60_000;

/** FIN_BENCH_RETENTION_MS: every retention of the soak (default a minute). */
const retentionMs = () => Number(process.env.FIN_BENCH_RETENTION_MS ?? MINUTE);
/** FIN_BENCH_PURGE_EVERY_MS: how often the purge runs (default 15 s). */
const purgeEveryMs = () => Number(process.env.FIN_BENCH_PURGE_EVERY_MS ?? 15_000);

/** The sale number the journeys confirm a device's sale with; the sale search answers it, cancelled. */
export const saleNumberOf = (imei: string) => `S-${imei}`;

type Kit = { createFinancingService: typeof createFinancingService };

/**
 * Every retention at `FIN_BENCH_RETENTION_MS` but the expired authorizations' (at least validity plus the
 * confirmation grace, decision LC-2: no journey leaves one to expire), proposal reuse off (R-11's window
 * would otherwise hold cancelled records 8 days).
 */
export function soakService(kit: Kit, store: Store) {
  const keep = retentionMs();
  const service = kit.createFinancingService({
    clients: [
      {
        ...BENCH_CLIENT,
        scopes: ['sales:authorize'],
        storeIds: [BENCH_STORE_ID],
        saleSearch: {
          async search(query) {
            const imei = 'imei' in query ? query.imei : undefined;
            if (!imei) return [];
            const saleDate = new Date().toISOString();
            return [{ status: 'CANCELLED', saleNumber: saleNumberOf(imei), saleDate, imei }];
          },
        },
        webhooks: [
          {
            url: 'https://receiver.bench.invalid/webhooks',
            secrets: [`whsec_${Buffer.alloc(32, 7).toString('base64')}`],
          },
        ],
      },
    ],
    credit: { analyze: async ({ amount }) => ({ approved: true, amount, installments: 10 }) },
    store,
    limits: { writesPerMinute: BENCH_WRITE_LIMIT, idempotencyRetentionMs: keep, confirmationGraceMs: MINUTE },
    rules: { r11: { limit: 0 } },
    retention: {
      tokensMs: keep,
      endedHoldsMs: keep,
      unusedProposalsMs: keep,
      deliveredEventsMs: keep,
      deadEventsMs: keep,
      cancelledAuthorizationsMs: keep,
      expiredAuthorizationsMs: 16 * MINUTE,
    },
    webhookDelivery: { fetch: async () => new Response(null, { status: 204 }) },
  });
  return { service, startWorkers: () => startWorkers(service) };
}

/** The soak's workers, each a timer that never overlaps itself: purge, expiry, webhook delivery. */
function startWorkers(service: ReturnType<Kit['createFinancingService']>) {
  const every = (ms: number, work: () => Promise<unknown>) => {
    let running = false;
    const timer = setInterval(async () => {
      if (running) return;
      running = true;
      try {
        await work();
      } catch (error) {
        console.error('soak worker failed:', error);
      } finally {
        running = false;
      }
    }, ms);
    return () => clearInterval(timer);
  };
  const stops = [
    every(purgeEveryMs(), () => service.workers.purgeExpired()),
    every(5_000, () => service.workers.expireAuthorizations()),
    every(500, () => service.webhooks.deliverDue()),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
