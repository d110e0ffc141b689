// service.webhooks.deliverDue(): one pass of the sender: claim the due events, POST each outside any transaction, record the outcome.
import { randomUUID } from 'node:crypto';
import type { ServiceDeps } from '../deps/service-deps.js';
import { stopSignal } from '../deps/stop-signal.js';
import type { WebhookEventRecord } from '../ports/webhook-events.js';
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
}

/** Events of different authorizations are sent side by side, at most this many at once. */
const CONCURRENCY = 8;

/** The body of every attempt: Standard Webhooks' `{ type, timestamp, data }` with our event `id`. */
export const webhookBody = (event: WebhookEventRecord): string =>
  JSON.stringify({
    id: event.eventId,
    type: event.type,
    timestamp: event.occurredAt,
    data: { ...event.data, sequence: event.sequence },
  });

type Outcome = Exclude<keyof WebhookDeliverySummary, 'claimed'>;

async function deliverOne(
  deps: ServiceDeps,
  delivery: WebhookDelivery,
  event: WebhookEventRecord,
  owner: string,
  signal: AbortSignal | undefined,
): Promise<Outcome> {
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
  if (failed.length === 0) {
    await deps.store.recordWebhookAttempt({
      ...base,
      status: 'DELIVERED',
      attempts: event.attempts + (results.length > 0 ? 1 : 0),
      nextAttemptAt: null,
    });
    log(deps, 'webhook.delivered', event, results.length > 0 ? event.attempts + 1 : event.attempts);
    return 'delivered';
  }
  const attempts = event.attempts + 1;
  const retryAfter = Math.max(0, ...failed.map((r) => r.retryAfterMs ?? 0));
  const delay = nextAttemptDelayMs(attempts, delivery.random(), retryAfter);
  const lastOutcome = failed.map((r) => r.outcome).join(' ');
  await deps.store.recordWebhookAttempt({
    ...base,
    status: delay === undefined ? 'DEAD' : 'PENDING',
    attempts,
    nextAttemptAt: delay === undefined ? null : new Date(now.getTime() + delay),
    lastOutcome,
  });
  if (delay === undefined) delivery.telemetry.dead(event);
  log(deps, delay === undefined ? 'webhook.dead' : 'webhook.failed', event, attempts, lastOutcome);
  return delay === undefined ? 'dead' : 'retrying';
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
 * One pass: leases up to `limit` due events (each the oldest undelivered of its authorization, so order
 * per authorization holds across instances), sends them outside any transaction, `CONCURRENCY` at a time,
 * and records each outcome. Stops between events once the service closes or `signal` aborts.
 */
export async function deliverDue(
  deps: ServiceDeps,
  delivery: WebhookDelivery,
  options: DeliverDueOptions = {},
): Promise<WebhookDeliverySummary> {
  const stopped = stopSignal(deps, options);
  const summary: WebhookDeliverySummary = { claimed: 0, delivered: 0, retrying: 0, dead: 0 };
  const owner = `webhooks:${randomUUID()}`;
  const now = deps.clock.now();
  const events = await deps.store.claimDueWebhookEvents({
    now,
    limit: Math.max(1, Math.trunc(options.limit ?? 100)),
    lease: { owner, now, until: new Date(now.getTime() + delivery.leaseMs) },
  });
  summary.claimed = events.length;
  const queue = [...events];
  const lane = async () => {
    for (let event = queue.shift(); event && !stopped(); event = queue.shift()) {
      summary[await deliverOne(deps, delivery, event, owner, options.signal)] += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, lane));
  return summary;
}
