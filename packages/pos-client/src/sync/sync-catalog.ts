// syncCatalog: the daily read of employees, stores, plans, products and services, with a diff against yesterday's.
import { type Clock, systemClock } from '@fin/core';
import type { Page, PagedList } from '../pagination/paged-list.js';
import {
  type PaginationInconsistency,
  PaginationInconsistencyError,
} from '../pagination/pagination-inconsistency-error.js';
import type { PosClient } from '../pos-client.js';
import { type CatalogDiff, diffCatalog } from './catalog-diff.js';
import type { CatalogSnapshot, StorePlan, StoreProduct, StoreService } from './catalog-snapshot.js';
import { mapLimit } from './map-limit.js';
import { type RefusedRecord, type SyncResource, screenRecords } from './screen-records.js';

export type { RefusedRecord, SyncResource };

/** One page read by the sync (lists without pages count as one page). */
export interface SyncProgress {
  resource: SyncResource;
  storeId?: string;
  planId?: string;
  sku?: string;
  page: number;
  totalPages: number;
  /** Items in this page. */
  items: number;
  /** Items of this resource read so far in this sync. */
  itemsSoFar: number;
  /** Pages read so far in this sync, every resource included. */
  pages: number;
}

/** A list that changed while it was read, and was read again from its first page. */
export interface SyncWarning extends PaginationInconsistency {
  kind: 'relisted';
  storeId?: string;
  planId?: string;
}

export interface SyncCatalogOptions {
  /** Stores whose plans, products and services to read; default every store `GET /v1/stores` lists. */
  storeIds?: readonly string[];
  /** Yesterday's snapshot; the diff says what was added, changed and removed since. */
  previous?: CatalogSnapshot;
  /** Told of every page as it arrives. */
  onProgress?(progress: SyncProgress): void;
  /** Items per page, default 200 (the most the spec allows: the fewest requests under the read limit). */
  pageSize?: number;
  /** Services calls (one per smartphone SKU) in flight at once; default 4. The client's pacer sets the rate. */
  concurrency?: number;
  /** Times a list that changed while being read is read again before the sync fails; default 2. */
  maxRelists?: number;
  signal?: AbortSignal;
  /** Clock of `syncedAt`; default the real one. */
  clock?: Clock;
}

export interface CatalogSync {
  snapshot: CatalogSnapshot;
  diff: CatalogDiff;
  /** Lists re-read because they changed under the sync; the snapshot is complete nonetheless. */
  warnings: SyncWarning[];
  /**
   * Partner records left out of the snapshot because their text no store can hold (NUL, lone surrogates:
   * DESIGN 17), each naming its list, field and record. An employee refused is not counted as departed.
   */
  refused: RefusedRecord[];
  /** Pages read (each a request that succeeded; retries not counted). */
  pages: number;
}

type Scope = { storeId?: string; planId?: string; sku?: string };

/**
 * Reads the partner's catalog and compares it with `previous`. Requests go one list at a time (services
 * `concurrency` at a time) through the client's pacer, so the sync stays under the read limit. It
 * resolves only with a complete snapshot: a list that changes while read is read again (`warnings`),
 * and any failure (after the transport's retries) rejects the whole sync with that typed error, its
 * `endpoint` naming the call.
 */
export async function syncCatalog(pos: PosClient, options: SyncCatalogOptions = {}): Promise<CatalogSync> {
  const clock = options.clock ?? systemClock;
  const call = { signal: options.signal, correlationId: crypto.randomUUID() };
  const list = { ...call, pageSize: options.pageSize ?? 200 };
  const maxRelists = options.maxRelists ?? 2;
  const warnings: SyncWarning[] = [];
  const refused: RefusedRecord[] = [];
  // CPFs of refused employee records: unreadable, not gone, so never a departure.
  const unreadable = new Set<string>();
  const screen = <T extends object>(resource: SyncResource, scope: Scope, items: T[]) =>
    screenRecords(resource, scope, items, refused, (record) => {
      if (resource === 'employees') unreadable.add(String((record as { cpf?: unknown }).cpf));
    });
  const counts: Record<SyncResource, number> = {
    employees: 0,
    stores: 0,
    plans: 0,
    products: 0,
    services: 0,
  };
  let pages = 0;

  const tick = (resource: SyncResource, scope: Scope, page: Pick<Page<unknown>, 'items' | 'pagination'>) => {
    pages += 1;
    counts[resource] += page.items.length;
    options.onProgress?.({
      resource,
      ...scope,
      page: page.pagination.page,
      totalPages: page.pagination.totalPages,
      items: page.items.length,
      itemsSoFar: counts[resource],
      pages,
    });
  };

  /** Every item of a paged list; read again from page 1 when it changes underneath. */
  const readAll = async <T extends object>(
    resource: SyncResource,
    scope: Scope,
    open: () => PagedList<T>,
  ): Promise<T[]> => {
    for (let relists = 0; ; relists++) {
      const items: T[] = [];
      const countBefore = counts[resource];
      try {
        for await (const page of open().pages()) {
          items.push(...page.items);
          tick(resource, scope, page);
        }
        return screen(resource, scope, items);
      } catch (error) {
        if (!(error instanceof PaginationInconsistencyError) || relists >= maxRelists) throw error;
        counts[resource] = countBefore;
        warnings.push({ kind: 'relisted', ...error.inconsistency, ...scope });
      }
    }
  };

  const unpaged = <T extends object>(resource: SyncResource, scope: Scope, items: T[]) => {
    tick(resource, scope, {
      items,
      pagination: { page: 1, pageSize: items.length, totalItems: items.length, totalPages: 1 },
    });
    return screen(resource, scope, items);
  };

  const employees = await readAll('employees', {}, () => pos.employees.list(list));
  const stores = await readAll('stores', {}, () => pos.stores.list(list));
  const storeIds = [...new Set(options.storeIds ?? stores.map((store) => store.storeId))];
  const plans: StorePlan[] = [];
  const products: StoreProduct[] = [];
  const services: StoreService[] = [];

  for (const storeId of storeIds) {
    const store = pos.store(storeId);
    const storePlans = unpaged('plans', { storeId }, await store.plans.list(call));
    plans.push(...storePlans.map((plan) => ({ ...plan, storeId })));
    const smartphones = new Set<string>();
    for (const { planId } of storePlans) {
      const planProducts = await readAll('products', { storeId, planId }, () =>
        store.products.list({ ...list, planId }),
      );
      for (const product of planProducts) {
        products.push({ ...product, storeId, planId });
        if (product.productType === 'SMARTPHONE') smartphones.add(product.sku);
      }
    }
    const bySku = await mapLimit([...smartphones], options.concurrency ?? 4, async (sku) => ({
      sku,
      services: unpaged('services', { storeId, sku }, await store.services.list({ sku }, call)),
    }));
    for (const { sku, services: offered } of bySku) {
      services.push(...offered.map((service) => ({ ...service, storeId, sku })));
    }
  }

  const snapshot: CatalogSnapshot = {
    syncedAt: clock.now().toISOString(),
    storeIds,
    employees,
    stores: options.storeIds ? stores.filter((store) => storeIds.includes(store.storeId)) : stores,
    plans,
    products,
    services,
  };
  const diff = diffCatalog(options.previous, snapshot);
  diff.departures = diff.departures.filter((employee) => !unreadable.has(employee.cpf));
  return { snapshot, diff, warnings, refused, pages };
}
