// The catalog sync job (spec 1.3): syncCatalog for each partner into the store, departures recorded, last success shared by every instance.
import { type Clock, type Employee, type Logger, systemClock } from '@fin/core';
import { createBoundedSignal } from '@fin/core/transport';
import {
  type CatalogSnapshot,
  type PosClient,
  type RefusedRecord,
  type SyncCatalogOptions,
  type SyncProgress,
  syncCatalog,
} from '@fin/pos-client';
import { type Departure, type PartnerCatalog, readPartnerCatalog } from '../catalog/partner-catalog.js';
import type { JsonValue } from '../ports/records.js';
import type { Store } from '../ports/store.js';

export interface CatalogSyncPartner {
  /** The partner's `clientId` in `createFinancingService({ clients })`: its catalog is stored under it. */
  partnerId: string;
  pos: PosClient;
  /** Stores whose plans, products and services to read; default every store the partner lists. */
  storeIds?: readonly string[];
}

export type { Departure, PartnerCatalog };

export interface CatalogSyncOptions {
  store: Store;
  partners: readonly CatalogSyncPartner[];
  clock?: Clock;
  logger?: Logger;
  /** How long a departure stays on record after the sync that noticed it: 90 days. */
  departureRetentionDays?: number;
  /**
   * Time one partner's sync may take, every page included; default 15 minutes. A partner past it is ended
   * (`error: 'aborted'`, its stored catalog kept) and the next partner's sync starts: one stuck partner never
   * stops the others.
   */
  partnerTimeoutMs?: number;
  /** Passed to every `syncCatalog` call. */
  sync?: Pick<SyncCatalogOptions, 'pageSize' | 'concurrency' | 'maxRelists'>;
  /** Told of every page each partner's sync reads (`syncCatalog`'s `onProgress`, with the partner). */
  onProgress?(progress: SyncProgress & { partnerId: string }): void;
}

export type CatalogSyncResult =
  | {
      partnerId: string;
      ok: true;
      syncedAt: string;
      /** Employees who left since the previous sync. */
      departures: Employee[];
      /** Requests the sync made, and lists it read twice because they changed underneath. */
      pages: number;
      relisted: number;
      /** Records left out because their text no store can hold (DESIGN 17), each naming list, field and record. */
      refused: RefusedRecord[];
    }
  | {
      partnerId: string;
      ok: false;
      /**
       * The error's code (or name), `aborted` when its signal stopped it, `timeout` past `partnerTimeoutMs`:
       * no message, which may quote the partner's answer.
       */
      error: string;
      /** The stored catalog stays as it was, from this moment on. */
      lastSucceededAt: string | undefined;
    };

export interface CatalogSyncJob {
  /**
   * One sync of every partner, one after the other; a partner that fails does not stop the others.
   * An aborted `signal` (a closing `startWorkerLoop`) stops it before the next partner and cuts short the
   * partner in progress, whose stored catalog then stays as it was.
   */
  runOnce(options?: { signal?: AbortSignal }): Promise<CatalogSyncResult[]>;
  /** When the partner's catalog was last synced completely, as stored (every instance sees the same). */
  lastSucceededAt(partnerId: string): Promise<Date | undefined>;
  /** The partner's stored catalog and departures. */
  read(partnerId: string): Promise<PartnerCatalog | undefined>;
}

const DAY_MS = 86_400_000;
/** How long one partner's sync may take unless told otherwise. */
export const DEFAULT_PARTNER_SYNC_TIMEOUT_MS = 15 * 60_000;

/** The departures to keep: yesterday's still absent today and recent enough, then today's new ones. */
function departuresAfter(
  previous: Departure[],
  today: CatalogSnapshot,
  departed: Employee[],
  retentionMs: number,
): Departure[] {
  const present = new Set(today.employees.map((employee) => employee.cpf));
  const since = Date.parse(today.syncedAt) - retentionMs;
  return [
    ...previous.filter((d) => !present.has(d.employee.cpf) && Date.parse(d.detectedAt) > since),
    ...departed.map((employee) => ({ employee, detectedAt: today.syncedAt })),
  ];
}

/**
 * The daily catalog sync. Call `runOnce()` from a scheduler, or
 * `startWorkerLoop((signal) => job.runOnce({ signal }), ...)` (the signal stops it at shutdown).
 * Each partner's complete snapshot replaces the stored one in one write; a failed sync leaves the
 * previous one in place and reports when it last succeeded.
 */
export function catalogSyncJob(options: CatalogSyncOptions): CatalogSyncJob {
  const { store, logger } = options;
  const clock = options.clock ?? systemClock;
  const retentionMs = (options.departureRetentionDays ?? 90) * DAY_MS;

  const read = (partnerId: string) => readPartnerCatalog(store, partnerId);

  const syncPartner = async (
    partner: CatalogSyncPartner,
    runSignal: AbortSignal | undefined,
  ): Promise<CatalogSyncResult> => {
    const { partnerId } = partner;
    const bound = createBoundedSignal(runSignal, options.partnerTimeoutMs ?? DEFAULT_PARTNER_SYNC_TIMEOUT_MS);
    const { signal } = bound;
    try {
      const previous = await read(partnerId);
      const sync = await syncCatalog(partner.pos, {
        ...options.sync,
        storeIds: partner.storeIds,
        previous: previous?.catalog,
        clock,
        signal,
        onProgress: options.onProgress && ((progress) => options.onProgress?.({ ...progress, partnerId })),
      });
      const departed = sync.diff.departures;
      const record: PartnerCatalog = {
        catalog: sync.snapshot,
        departures: departuresAfter(previous?.departures ?? [], sync.snapshot, departed, retentionMs),
      };
      await store.saveCatalogSnapshot({
        partnerId,
        // Plain JSON: optional fields left undefined by the client vanish, as they would in any store.
        snapshot: JSON.parse(JSON.stringify(record)) as JsonValue,
        syncedAt: new Date(sync.snapshot.syncedAt),
      });
      for (const finding of sync.refused) {
        logger?.warn?.({ event: 'catalog.record_refused', partnerId, ...finding });
      }
      logger?.info?.({
        event: 'catalog.synced',
        partnerId,
        pages: sync.pages,
        departures: departed.length,
      });
      return {
        partnerId,
        ok: true,
        syncedAt: sync.snapshot.syncedAt,
        departures: departed,
        pages: sync.pages,
        relisted: sync.warnings.length,
        refused: sync.refused,
      };
    } catch (failure) {
      // Stopped by its signal (shutting down) is no failure of the partner's POS: logged as info.
      const stopped = runSignal?.aborted === true;
      const error = stopped
        ? 'aborted'
        : bound.timedOut()
          ? 'timeout'
          : String((failure as { code?: unknown })?.code ?? (failure as Error)?.name ?? 'error');
      if (stopped) logger?.info?.({ event: 'catalog.sync_stopped', partnerId });
      else logger?.error?.({ event: 'catalog.sync_failed', partnerId, error });
      const last = await store.getCatalogSnapshot(partnerId).catch(() => undefined);
      return { partnerId, ok: false, error, lastSucceededAt: last?.syncedAt };
    } finally {
      bound.dispose();
    }
  };

  return {
    async runOnce({ signal } = {}) {
      const results: CatalogSyncResult[] = [];
      for (const partner of options.partners) {
        if (signal?.aborted) break;
        results.push(await syncPartner(partner, signal));
      }
      return results;
    },
    async lastSucceededAt(partnerId) {
      const stored = await store.getCatalogSnapshot(partnerId);
      return stored && new Date(stored.syncedAt);
    },
    read,
  };
}
