// The expiry worker (issue 26): once no confirmation can arrive any more, stores EXPIRED with its `authorization.expired` event.
import { randomUUID } from 'node:crypto';
import type { ServiceDeps } from '../deps/service-deps.js';
import { stopSignal, type WorkerRunOptions } from '../deps/stop-signal.js';
import type { AuthorizationRecord } from '../ports/records.js';
import { authorizationExpired } from '../webhooks/event-drafts.js';

export interface ExpirySummary {
  /** Authorizations stored `EXPIRED` with their event in this run. */
  expired: number;
  /** Written meanwhile by someone else (a late confirm): read again on the next run. */
  skipped: number;
}

const BATCH = 50;
const DAY_MS = 86_400_000;

/**
 * How far back a run looks (decision WD-5): authorizations whose grace ended within the last 7 days, so a
 * first run on an old database does not announce years of expiries, and a service down up to a week misses none.
 */
export const EXPIRY_LOOKBACK_MS = 7 * DAY_MS;

/**
 * One pass of `service.workers.expireAuthorizations()`: every authorization never confirmed whose
 * `expiresAt` plus `confirmationGraceMs` has passed (a late confirm can no longer succeed) and that has no
 * `authorization.expired` event yet becomes `EXPIRED` with that event, in one compare-and-set. Several
 * instances may run it at once: batches are leased, and the store refuses a second expired event.
 */
export async function expireAuthorizations(
  deps: ServiceDeps,
  options: WorkerRunOptions = {},
): Promise<ExpirySummary> {
  const stopped = stopSignal(deps, options);
  const summary: ExpirySummary = { expired: 0, skipped: 0 };
  const owner = `expiry:${randomUUID()}`;
  const { confirmationGraceMs } = deps.settings.limits;
  for (;;) {
    if (stopped()) return summary;
    const now = deps.clock.now();
    const expiredBefore = new Date(now.getTime() - confirmationGraceMs);
    const batch = await deps.store.listExpiredWithoutEvent({
      expiredBefore,
      expiredAfter: new Date(expiredBefore.getTime() - EXPIRY_LOOKBACK_MS),
      limit: BATCH,
      lease: { owner, now, until: new Date(now.getTime() + deps.settings.limits.confirmationPollMs) },
    });
    if (batch.length === 0) return summary;
    for (const record of batch) {
      if (stopped()) return summary;
      summary[(await expireOne(deps, record, expiredBefore, now)) ? 'expired' : 'skipped'] += 1;
    }
  }
}

/** Writers that lost a compare-and-set read again; this many tries is plenty. */
const MAX_WRITES = 3;

/**
 * Stores `EXPIRED` and its event in one compare-and-set. A stale version is read again: the write of a
 * neighbour on the same IMEI or proposal may just have stamped it `EXPIRED`, which owes no event
 * yet; a confirmation written meanwhile ends it.
 */
async function expireOne(
  deps: ServiceDeps,
  listed: AuthorizationRecord,
  expiredBefore: Date,
  now: Date,
): Promise<boolean> {
  let record: AuthorizationRecord | undefined = listed;
  for (let attempt = 0; attempt < MAX_WRITES && record; attempt++) {
    const stillDue =
      (record.status === 'AUTHORIZED' || record.status === 'EXPIRED') &&
      record.confirmation === null &&
      Date.parse(record.expiresAt) < expiredBefore.getTime();
    if (!stillDue) return false;
    const next = { ...record, status: 'EXPIRED' as const, updatedAt: now.toISOString() };
    const written = await deps.store.updateAuthorization({
      record: next,
      expectedVersion: record.version,
      now,
      events: [authorizationExpired(next, now)],
    });
    if (written.ok) return true;
    record = await deps.store.getAuthorization(listed.authorizationId);
  }
  return false;
}
