// Observable gauges of the workers' backlog, read from the store at each metric collection.
import type { Clock } from '@fin/core';
import type { Instrumentation } from '@fin/core/transport';
import type { Store } from '../ports/store.js';
import { AUTHORIZATION_VALIDITY_MS } from '../rules/r06-expiry.js';

/** Records a gauge reads at most per collection: a count at this cap means "this many or more". */
export const WORKER_LAG_CAP = 1000;

export interface WorkerLagSources {
  store: Store;
  clock: Clock;
  confirmationGraceMs: number;
  /** The partners (client ids) whose catalog sync age is reported. */
  partnerIds: readonly string[];
}

const ageSeconds = (now: Date, since: string) => Math.max(0, (now.getTime() - Date.parse(since)) / 1000);

/**
 * Pending cancellation verifications due (and the age of the oldest notice), authorizations awaiting
 * confirmation, and the age of each partner's last complete catalog sync. Returns the function that stops
 * them. A store that cannot answer skips that collection's values.
 */
export function watchWorkerLag(sources: WorkerLagSources, instrumentation: Instrumentation): () => void {
  const { store, clock } = sources;
  return instrumentation.gauges(
    {
      pendingCancellations: {
        name: 'fin.worker.pending_cancellations',
        description: `Cancellation notices due for verification through the partner's sale search (capped at ${WORKER_LAG_CAP}).`,
        unit: '{authorization}',
      },
      oldestPendingCancellation: {
        name: 'fin.worker.oldest_pending_cancellation.age',
        description: 'Age of the oldest cancellation notice still due for verification.',
        unit: 's',
      },
      unconfirmed: {
        name: 'fin.worker.unconfirmed_authorizations',
        description: `Authorizations within their life and grace with neither confirmation nor cancellation (capped at ${WORKER_LAG_CAP}).`,
        unit: '{authorization}',
      },
      catalogSyncAge: {
        name: 'fin.catalog.sync.age',
        description: "Time since the partner's last complete catalog sync.",
        unit: 's',
      },
    },
    async (report) => {
      const now = clock.now();
      const issuedAfter = new Date(now.getTime() - AUTHORIZATION_VALIDITY_MS - sources.confirmationGraceMs);
      const [pending, unconfirmed, snapshots] = await Promise.all([
        store.listPendingCancellations({ now, limit: WORKER_LAG_CAP }).catch(() => undefined),
        store.listUnconfirmed({ issuedAfter, limit: WORKER_LAG_CAP }).catch(() => undefined),
        Promise.all(
          sources.partnerIds.map(async (partnerId) => ({
            partnerId,
            syncedAt: (await store.getCatalogSnapshot(partnerId).catch(() => undefined))?.syncedAt,
          })),
        ),
      ]);
      if (pending) {
        report('pendingCancellations', pending.length);
        const oldest = pending[0]?.cancellation?.noticedAt;
        report('oldestPendingCancellation', oldest ? ageSeconds(now, oldest) : 0);
      }
      if (unconfirmed) report('unconfirmed', unconfirmed.length);
      for (const { partnerId, syncedAt } of snapshots) {
        if (syncedAt) report('catalogSyncAge', ageSeconds(now, syncedAt), { 'fin.partner.id': partnerId });
      }
    },
  );
}
