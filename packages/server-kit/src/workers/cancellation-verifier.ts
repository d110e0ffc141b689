// The cancellation verifier: searches again for every pending notice that is due, until the POS answers.
import { randomUUID } from 'node:crypto';
import type { ServiceDeps } from '../deps/service-deps.js';
import { stopSignal, type WorkerRunOptions } from '../deps/stop-signal.js';
import { nextVerificationDelayMs, verifyCancellation } from '../use-cases/verify-cancellation.js';

export interface VerificationSummary {
  /** Notices searched in this run. */
  checked: number;
  /** Financings cancelled because the search showed the sale CANCELLED. */
  verified: number;
  /** Notices the search contradicted (sale ACTIVE or PENDING): the financing stays. */
  contradicted: number;
  /** Still pending: the POS did not answer or did not list the sale; tried again later. */
  pending: number;
}

const BATCH = 50;

/**
 * How long a listed batch stays leased to this instance, so no other one searches the same sales
 * meanwhile: the shortest wait between two searches of one notice, so a lease never delays a search
 * that is due. A crashed instance's batch is free again after it.
 */
const LEASE_MS = nextVerificationDelayMs(1);

/**
 * One pass of `service.workers.verifyCancellations()`: every notice due now, in batches, each searched
 * once. Run it on a timer (or a cron); several instances may run it at once: each batch is leased to
 * the instance that listed it (no sale is searched twice) and each outcome is stored by compare-and-set.
 */
export async function verifyCancellations(
  deps: ServiceDeps,
  options: WorkerRunOptions = {},
): Promise<VerificationSummary> {
  const stopped = stopSignal(deps, options);
  const summary: VerificationSummary = { checked: 0, verified: 0, contradicted: 0, pending: 0 };
  const seen = new Set<string>();
  const owner = `verifier:${randomUUID()}`;
  for (;;) {
    if (stopped()) return summary;
    const now = deps.clock.now();
    const lease = { owner, now, until: new Date(now.getTime() + LEASE_MS) };
    const due = (await deps.store.listPendingCancellations({ now, limit: BATCH, lease })).filter(
      (record) => !seen.has(record.authorizationId),
    );
    if (due.length === 0) return summary;
    for (const record of due) {
      // Between items: the rest of the batch stays leased until LEASE_MS, then any instance takes it.
      if (stopped()) return summary;
      seen.add(record.authorizationId);
      const { record: after } = await verifyCancellation(deps, record);
      summary.checked += 1;
      const verification = after.cancellation?.verification;
      if (verification === 'VERIFIED') summary.verified += 1;
      else if (verification === 'CONTRADICTED') summary.contradicted += 1;
      else summary.pending += 1;
    }
  }
}
