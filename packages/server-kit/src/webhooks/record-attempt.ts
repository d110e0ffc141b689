// Writing an attempt's outcome: retried a few times when the store fails, logged when it still fails; never dropped in silence.
import pRetry from 'p-retry';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { WebhookAttempt, WebhookEventRecord } from '../ports/webhook-events.js';

/** Retries of a failed record write, 50 ms apart and doubling (under half a second in all, far under the lease). */
export const RECORD_RETRIES = 3;
const RECORD_RETRY_MS = 50;

/** What became of the write: stored, the lease lost to another instance, or still failing after the retries. */
export type RecordResult = 'recorded' | 'lease_lost' | 'unrecorded';

/**
 * Stores `attempt`, retrying a throwing store up to `RECORD_RETRIES` times. A write that still fails is logged at
 * error (`webhook.record_failed`): the event stays leased until its lease ends, then is sent again with the same
 * `webhook-id`, so the receiver deduplicates it and the operator knows why it came twice.
 */
export async function recordAttempt(
  deps: Pick<ServiceDeps, 'store' | 'logger'>,
  event: WebhookEventRecord,
  attempt: WebhookAttempt,
): Promise<RecordResult> {
  try {
    const written = await pRetry(() => deps.store.recordWebhookAttempt(attempt), {
      retries: RECORD_RETRIES,
      minTimeout: RECORD_RETRY_MS,
      factor: 2,
      randomize: false,
    });
    if (written) return 'recorded';
    deps.logger?.warn?.({ event: 'webhook.lease_lost', webhookId: event.eventId, type: event.type });
    return 'lease_lost';
  } catch (error) {
    deps.logger?.error?.({
      event: 'webhook.record_failed',
      webhookId: event.eventId,
      type: event.type,
      authorizationId: event.authorizationId,
      status: attempt.status,
      attempts: attempt.attempts,
      retries: RECORD_RETRIES,
      error: error instanceof Error ? error.name : 'unknown',
    });
    return 'unrecorded';
  }
}

/** Frees an event claimed but not attempted in this pass: its state as it was, due as it was, for the next claim. */
export function releaseUnattempted(
  deps: Pick<ServiceDeps, 'store' | 'logger' | 'clock'>,
  event: WebhookEventRecord,
  owner: string,
): Promise<RecordResult> {
  return recordAttempt(deps, event, {
    eventId: event.eventId,
    owner,
    status: 'PENDING',
    attempts: event.attempts,
    nextAttemptAt: new Date(event.nextAttemptAt ?? deps.clock.now().toISOString()),
    deliveredTo: event.deliveredTo,
    ...(event.lastOutcome ? { lastOutcome: event.lastOutcome } : {}),
    now: deps.clock.now(),
  });
}
