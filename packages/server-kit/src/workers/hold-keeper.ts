// The holds worker (issue 30): extends each hold the service made to its authorization's expiresAt plus the grace, releases it when it must, records how it ended.
import { randomUUID } from 'node:crypto';
import type { ServiceDeps } from '../deps/service-deps.js';
import { stopSignal, type WorkerRunOptions } from '../deps/stop-signal.js';
import { holdStoreOf, keepsHolds } from '../holds/hold-store-of.js';
import { tendHold } from '../holds/tend-hold.js';

export interface HoldKeeperSummary {
  /** Holds looked at in this run. */
  checked: number;
  extended: number;
  released: number;
  committed: number;
  expired: number;
  /** The partner did not answer: looked at again later (HOLD-8). */
  retrying: number;
}

const BATCH = 50;
/** How long a listed batch stays with this instance: another one takes a crashed instance's holds after it. */
const LEASE_MS = 60_000;
/** The longest wait between two looks at a hold kept for an authorization (HOLD-7). */
const CHECK_EVERY_MS = 60_000;

/**
 * One pass of `service.workers.keepHolds()`: every hold due now, in leased batches, each looked at once
 * and written by compare-and-set (a hold another writer changed meanwhile is looked at next run). Never
 * called by a request: an authorize never waits for a partner POS (spec 1.4). A store without holds: nothing to do.
 */
export async function keepHolds(
  deps: ServiceDeps,
  options: WorkerRunOptions = {},
): Promise<HoldKeeperSummary> {
  const summary: HoldKeeperSummary = {
    checked: 0,
    extended: 0,
    released: 0,
    committed: 0,
    expired: 0,
    retrying: 0,
  };
  if (!keepsHolds(deps.store)) return summary;
  const holds = holdStoreOf(deps.store);
  const stopped = stopSignal(deps, options);
  const limits = {
    confirmationGraceMs: deps.settings.limits.confirmationGraceMs,
    checkEveryMs: CHECK_EVERY_MS,
  };
  const seen = new Set<string>();
  const owner = `holds:${randomUUID()}`;
  for (;;) {
    if (stopped()) return summary;
    const now = deps.clock.now();
    const lease = { owner, now, until: new Date(now.getTime() + LEASE_MS) };
    const due = (await holds.listDueHolds({ now, limit: BATCH, lease })).filter(
      (hold) => !seen.has(`${hold.partnerId}\u0000${hold.reservationId}`),
    );
    if (due.length === 0) return summary;
    for (const hold of due) {
      if (stopped()) return summary;
      seen.add(`${hold.partnerId}\u0000${hold.reservationId}`);
      const { next, step } = await tendHold(deps, hold, limits);
      const record = { ...next, version: hold.version + 1, updatedAt: deps.clock.now().toISOString() };
      const written = await holds.updateHold({ record, expectedVersion: hold.version });
      if (step.kind === 'wait') continue;
      summary.checked += 1;
      if (!written.ok) continue;
      if (next.attempts > hold.attempts) summary.retrying += 1;
      else if (next.state === 'RELEASED') summary.released += 1;
      else if (next.state === 'COMMITTED') summary.committed += 1;
      else if (next.state === 'EXPIRED') summary.expired += 1;
      else if (step.kind === 'extend') summary.extended += 1;
    }
  }
}
