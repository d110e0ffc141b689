// startFinancingService: @fin/server-kit on node:http, fed by a partner POS through @fin/pos-client, with its workers.
import type { Logger } from '@fin/core';
import { type PartnerScope, PosClient, type PosClientOptions, type SyncProgress } from '@fin/pos-client';
import {
  type CatalogSyncJob,
  type CatalogSyncResult,
  type Clock,
  type CreditEngine,
  catalogSyncJob,
  createFinancingService,
  type FinancingService,
  type HealthPaths,
  sandboxCreditEngine,
  systemClock,
  toNodeHandler,
  type WebhookSubscription,
} from '@fin/server-kit';
import { listen } from './listen.js';
import { openStore, type StoreKind } from './store.js';
import { defaultSchedule, startWorkers, type WorkerRun, type WorkerSchedule } from './workers.js';

interface Credentials {
  clientId: string;
  clientSecret: string;
}

export interface FinancingServiceExampleOptions {
  /** Base URL of the partner POS (`examples/partner-pos`, or a partner's sandbox). */
  partnerPosUrl: string;
  /** This service's application credentials at the partner POS. */
  partnerPosCredentials: Credentials;
  /**
   * The partner's POS, registered as the client allowed to call this API (`sales:authorize`). Its
   * stores are the ones the first catalog sync lists; its catalog is stored under its `clientId`.
   */
  posVendor: Credentials;
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1`: loopback only. */
  host?: string;
  /** A PostgreSQL connection string: migrated, then used as the store. Default: the memory store. */
  databaseUrl?: string;
  /** Default the system clock; the demo moves its own to let a worker's wait pass. */
  clock?: Clock;
  logger?: Logger;
  /** Default `sandboxCreditEngine()`. */
  credit?: CreditEngine;
  /** Transport settings of the two PosClients (timeouts, retries, the partner's rate limits). */
  posClient?: Omit<PosClientOptions, 'baseUrl' | 'clientId' | 'clientSecret' | 'scopes' | 'logger'>;
  /** Pauses between worker runs; see `defaultSchedule`. */
  schedule?: Partial<WorkerSchedule>;
  /** Every page the catalog sync reads (for a progress bar). */
  onCatalogProgress?(progress: SyncProgress): void;
  /** Every finished worker run, with its summary. */
  onWorkerRun?(run: WorkerRun): void;
  /** Probe routes (`{ live: '/healthz', ready: '/readyz' }`); default none. */
  healthPaths?: HealthPaths;
  /** The POS vendor's webhook receivers (`[{ url, secrets, events? }]`): contract-status events go there. */
  webhooks?: readonly WebhookSubscription[];
  /**
   * Spec v2.0 seller login at the partner's OpenID Provider: the `oidc` option of the PosClient that logs
   * sellers in, and its `tls` certificate with `clientAuth: 'tls_client_auth'` (docs/seller-login.md).
   */
  sellerLogin?: Required<Pick<PosClientOptions, 'oidc'>> & Pick<PosClientOptions, 'tls'>;
}

/** What the financing team's callback route uses: `beginLogin`, then `completeLogin` on the callback. */
export type SellerLoginRoutes = Pick<PosClient['sellers'], 'beginLogin' | 'completeLogin'>;

export interface RunningFinancingService {
  /** `http://127.0.0.1:<port>`: give it to an AuthorizationClient as `baseUrl`. */
  url: string;
  service: FinancingService;
  storeKind: StoreKind;
  /** The POS vendor's stores, from the catalog. */
  storeIds: string[];
  catalog: CatalogSyncJob;
  /** What the first catalog sync, run before the service started, did. */
  firstSync: CatalogSyncResult;
  /** With `sellerLogin`: the seller login at the partner's provider, through the service's PosClient. */
  sellerLogin?: SellerLoginRoutes;
  /**
   * Graceful shutdown: the service refuses new work at once (readiness false, 503 with `Connection:
   * close`) while the listener stops; requests in flight finish and workers stop between items (within
   * the service's `limits.shutdownTimeoutMs`); then the connections end and the store's pool is released.
   */
  close(): Promise<void>;
}

/** Runs `closers` last-first, each once, even when one fails; rethrows the first failure. */
async function closeAll(closers: (() => Promise<unknown>)[]): Promise<void> {
  const failures: unknown[] = [];
  for (const close of closers.splice(0).reverse()) await close().catch((error) => failures.push(error));
  if (failures.length > 0) throw failures[0];
}

/** The PosClient of the seller login: the partner's credentials, the `oidc` (and `tls`) of `sellerLogin`. */
function sellerLoginOf(options: FinancingServiceExampleOptions): SellerLoginRoutes {
  const { sellers } = new PosClient({
    ...options.posClient,
    ...options.sellerLogin,
    baseUrl: options.partnerPosUrl,
    ...options.partnerPosCredentials,
    logger: options.logger,
  });
  return { beginLogin: sellers.beginLogin, completeLogin: sellers.completeLogin };
}

export async function startFinancingService(
  options: FinancingServiceExampleOptions,
): Promise<RunningFinancingService> {
  const { logger, posVendor } = options;
  const clock = options.clock ?? systemClock;
  const schedule = { ...defaultSchedule, ...options.schedule };
  // One client per job, each asking only for the scope it uses (spec section 5).
  const partnerPos = (scope: PartnerScope) =>
    new PosClient({
      ...options.posClient,
      baseUrl: options.partnerPosUrl,
      ...options.partnerPosCredentials,
      scopes: [scope],
      logger,
    });
  const { store, kind } = await openStore(options.databaseUrl, logger);
  const closers: (() => Promise<unknown>)[] = [() => store.close()];
  try {
    const catalog = catalogSyncJob({
      store,
      clock,
      logger,
      partners: [{ partnerId: posVendor.clientId, pos: partnerPos('catalog:read') }],
      onProgress: options.onCatalogProgress,
    });
    // The daily loop's first run is the sync the service needs before it starts.
    let initial: Promise<CatalogSyncResult[]> | undefined = catalog.runOnce();
    const firstRun = initial;
    const catalogLoop = startWorkers(
      {
        'catalog-sync': (signal) => {
          const run = initial ?? catalog.runOnce({ signal });
          initial = undefined;
          return run;
        },
      },
      { schedule, logger, onRun: options.onWorkerRun },
    );
    closers.push(() => catalogLoop.close());
    const [firstSync] = (await firstRun) as [CatalogSyncResult];
    const stored = await catalog.read(posVendor.clientId);
    if (!stored) {
      const why = firstSync.ok ? 'nothing stored' : firstSync.error;
      throw new Error(`catalog sync from the partner POS failed (${why}) and no earlier catalog is stored`);
    }
    const storeIds = stored.catalog.stores.map((partnerStore) => partnerStore.storeId);

    const service = createFinancingService({
      clients: [
        {
          ...posVendor,
          scopes: ['sales:authorize'],
          storeIds,
          saleSearch: partnerPos('sales:read').sales,
          // Issue 30: the partner's optional stock holds, which the service makes in its seller flow.
          stockHolds: partnerPos('inventory:read'),
          ...(options.webhooks ? { webhooks: options.webhooks } : {}),
        },
      ],
      credit: options.credit ?? sandboxCreditEngine(),
      store,
      clock,
      logger,
      healthPaths: options.healthPaths,
    });
    closers.push(() => service.close());
    const workers = startWorkers(
      {
        'cancellation-verifier': (signal) => service.workers.verifyCancellations({ signal }),
        'confirmation-poller': (signal) => service.workers.pollConfirmations({ signal }),
        purge: () => service.workers.purgeExpired(),
        'stock-holds': (signal) => service.workers.keepHolds({ signal }),
        'authorization-expiry': (signal) => service.workers.expireAuthorizations({ signal }),
        'webhook-delivery': (signal) => service.webhooks.deliverDue({ signal }),
      },
      { schedule, logger, onRun: options.onWorkerRun },
    );
    closers.push(() => workers.close());
    // Readiness reports every loop, and the service's close() stops them between items.
    for (const loop of [...catalogLoop.loops, ...workers.loops]) service.workers.attach(loop);
    const http = await listen(toNodeHandler(service), options.port ?? 0, options.host ?? '127.0.0.1');
    // First at shutdown: the service stops taking work at once while the listener closes behind it.
    closers.push(() => http.close(service.close()));
    return {
      url: http.url,
      service,
      storeKind: kind,
      storeIds,
      catalog,
      firstSync,
      ...(options.sellerLogin ? { sellerLogin: sellerLoginOf(options) } : {}),
      close: () => closeAll(closers),
    };
  } catch (error) {
    await closeAll(closers).catch(() => undefined);
    throw error;
  }
}
