// service.webhooks.deliverDue(): one pass of the sender: claim a fair share of due events per partner, POST each outside any transaction, record every outcome.
import { randomUUID } from 'node:crypto';
import type { ServiceDeps } from '../deps/service-deps.js';
import { stopSignal } from '../deps/stop-signal.js';
import type { WebhookEventRecord } from '../ports/webhook-events.js';
import { byPartner, drainPartner, passBudget } from './partner-lanes.js';
import { type RecordResult, recordAttempt, releaseUnattempted } from './record-attempt.js';
import { nextAttemptDelayMs } from './retry-schedule.js';
import { sendWebhook, type WebhookSendResult } from './send-webhook.js';
import { subscribedTo } from './subscriptions.js';
import type { WebhookTelemetry } from './webhook-telemetry.js';

/** How the sender reaches receivers; `createFinancingService({ webhookDelivery })` sets it. */
export interface WebhookDelivery {
  fetch: typeof fetch;
  /** A draw in [0, 1) for the retry jitter. */
  random: () => number;
  /** An attempt not answered 2xx within this is failed (`WEBHOOK_DELIVERY_TIMEOUT_MS`, 15 s). */
  timeoutMs: number;
  /** How long a claimed event is held for its attempt before another instance may take it (over the timeout). */
  leaseMs: number;
  telemetry: WebhookTelemetry;
}

export interface DeliverDueOptions {
  /** Events claimed in this pass; default 100. */
  limit?: number;
  /** Stops the pass between events (a worker loop's run signal). */
  signal?: AbortSignal;
}

export interface WebhookDeliverySummary {
  /** Events claimed in this pass. */
  claimed: number;
  /** Now delivered to every subscription they go to (none: delivered at once). */
  delivered: number;
  /** Failed somewhere, due again later on the schedule. */
  retrying: number;
  /** Failed the last attempt of the schedule: `service.webhooks.replay` sends them again. */
  dead: number;
  /**
   * Claimed but not attempted (their partner's receiver unreachable in this pass, the pass's budget of one
   * delivery timeout spent, or the service closing): released, due as they were, no attempt counted.
   */
  deferred: number;
  /** Attempted, but the store refused the outcome through every retry (logged `webhook.record_failed`). */
  unrecorded: number;
}

/** The body of every attempt: Standard Webhooks' `{ type, timestamp, data }` with our event `id`. */
export const webhookBody = (event: WebhookEventRecord): string =>
  JSON.stringify({
    id: event.eventId,
    type: event.type,
    timestamp: event.occurredAt,
    data: { ...event.data, sequence: event.sequence },
  });

type Outcome = Exclude<keyof WebhookDeliverySummary, 'claimed'>;

/** A receiver that did not answer at all: its partner's other events wait for the next pass. */
const UNREACHABLE = new Set(['timeout', 'connection_error']);

const counted = (recorded: RecordResult, outcome: Outcome): Outcome =>
  recorded === 'unrecorded' ? 'unrecorded' : outcome;

async function deliverOne(
  deps: ServiceDeps,
  delivery: WebhookDelivery,
  event: WebhookEventRecord,
  owner: string,
  signal: AbortSignal | undefined,
): Promise<{ outcome: Outcome; unreachable: boolean }> {
  const subscriptions = subscribedTo(deps.clients.get(event.clientId)?.webhooks ?? [], event.type).filter(
    (subscription) => !event.deliveredTo.includes(subscription.url),
  );
  const body = webhookBody(event);
  const sentAt = deps.clock.now();
  const results: (WebhookSendResult & { url: string })[] = await Promise.all(
    subscriptions.map(async (subscription) => ({
      url: subscription.url,
      ...(await delivery.telemetry.attempt(event, subscription.url, () =>
        sendWebhook({
          fetch: delivery.fetch,
          url: subscription.url,
          eventId: event.eventId,
          body,
          secrets: subscription.secrets,
          timestamp: Math.floor(sentAt.getTime() / 1000),
          ...(event.correlationId ? { correlationId: event.correlationId } : {}),
          timeoutMs: delivery.timeoutMs,
          signal,
          nowMs: sentAt.getTime(),
        }),
      )),
    })),
  );
  const deliveredTo = [...event.deliveredTo, ...results.filter((r) => r.delivered).map((r) => r.url)];
  const failed = results.filter((r) => !r.delivered);
  const now = deps.clock.now();
  const base = { eventId: event.eventId, owner, deliveredTo, now };
  const unreachable = failed.some((r) => UNREACHABLE.has(r.outcome));
  if (failed.length === 0) {
    const attempts = event.attempts + (results.length > 0 ? 1 : 0);
    const recorded = await recordAttempt(deps, event, {
      ...base,
      status: 'DELIVERED',
      attempts,
      nextAttemptAt: null,
    });
    log(deps, 'webhook.delivered', event, attempts);
    return { outcome: counted(recorded, 'delivered'), unreachable };
  }
  const attempts = event.attempts + 1;
  const retryAfter = Math.max(0, ...failed.map((r) => r.retryAfterMs ?? 0));
  const delay = nextAttemptDelayMs(attempts, delivery.random(), retryAfter);
  const lastOutcome = failed.map((r) => r.outcome).join(' ');
  const recorded = await recordAttempt(deps, event, {
    ...base,
    status: delay === undefined ? 'DEAD' : 'PENDING',
    attempts,
    nextAttemptAt: delay === undefined ? null : new Date(now.getTime() + delay),
    lastOutcome,
  });
  if (delay === undefined) delivery.telemetry.dead(event);
  log(deps, delay === undefined ? 'webhook.dead' : 'webhook.failed', event, attempts, lastOutcome);
  return { outcome: counted(recorded, delay === undefined ? 'dead' : 'retrying'), unreachable };
}

/** What operators see: ids, type, attempts and why; never the body, a header, a secret or a signature. */
function log(deps: ServiceDeps, name: string, event: WebhookEventRecord, attempts: number, outcome?: string) {
  const entry = {
    event: name,
    webhookId: event.eventId,
    type: event.type,
    authorizationId: event.authorizationId,
    ...(event.correlationId ? { correlationId: event.correlationId } : {}),
    attempts,
    ...(outcome ? { outcome } : {}),
  };
  if (name === 'webhook.delivered') deps.logger?.info?.(entry);
  else deps.logger?.warn?.(entry);
}

/**
 * One pass: leases up to `limit` due events (each the oldest undelivered of its authorization, so order per
 * authorization holds across instances; a fair share per partner, so one partner's backlog cannot fill the
 * claim), then sends each partner's events on its own lanes outside any transaction and records every
 * outcome, whatever the other lanes meet. A partner whose receiver is unreachable, a pass that has run one
 * delivery timeout, or a closing service start no new attempt: those events are released, due as they were.
 */
export async function deliverDue(
  deps: ServiceDeps,
  delivery: WebhookDelivery,
  options: DeliverDueOptions = {},
): Promise<WebhookDeliverySummary> {
  const stopped = stopSignal(deps, options);
  const owner = `webhooks:${randomUUID()}`;
  const now = deps.clock.now();
  const events = await deps.store.claimDueWebhookEvents({
    now,
    limit: Math.max(1, Math.trunc(options.limit ?? 100)),
    lease: { owner, now, until: new Date(now.getTime() + delivery.leaseMs) },
  });
  const summary: WebhookDeliverySummary = {
    claimed: events.length,
    ...{ delivered: 0, retrying: 0, dead: 0, deferred: 0, unrecorded: 0 },
  };
  const budget = passBudget(delivery.timeoutMs);
  const work = {
    // Whatever one event meets stays its own: a throw is logged and counted, the other lanes go on.
    send: (event: WebhookEventRecord) =>
      deliverOne(deps, delivery, event, owner, options.signal).catch((error: unknown) => {
        deps.logger?.error?.({
          event: 'webhook.attempt_failed',
          webhookId: event.eventId,
          error: error instanceof Error ? error.name : 'unknown',
        });
        return { outcome: 'unrecorded' as const, unreachable: false };
      }),
    // Unsent either way: a release the store refused leaves it leased until the lease ends (logged).
    release: async (event: WebhookEventRecord): Promise<Outcome> => {
      await releaseUnattempted(deps, event, owner);
      return 'deferred';
    },
    mayStart: () => !budget.spent() && !stopped(),
  };
  try {
    await Promise.all(
      byPartner(events).map((queue) => drainPartner(queue, work, (outcome) => (summary[outcome] += 1))),
    );
  } finally {
    budget.dispose();
  }
  return summary;
}
