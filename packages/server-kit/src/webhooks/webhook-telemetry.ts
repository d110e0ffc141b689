// Spans and metrics of webhook delivery: one client span per attempt, attempts by outcome, latency, dead events, backlog per partner.
import { HTTP_DURATION_BUCKETS, type Instrumentation, type SpanHandle } from '@fin/core/transport';
import type { WebhookEventRecord, WebhookEventStore } from '../ports/webhook-events.js';
import type { WebhookSendResult } from './send-webhook.js';

export interface WebhookTelemetry {
  /** Runs one attempt in its span `webhook.deliver` and records its outcome and latency. */
  attempt(
    event: WebhookEventRecord,
    url: string,
    send: () => Promise<WebhookSendResult>,
  ): Promise<WebhookSendResult>;
  /** Counts an event that spent its schedule. */
  dead(event: WebhookEventRecord): void;
}

export function webhookTelemetry(instrumentation: Instrumentation): WebhookTelemetry {
  const attempts = instrumentation.counter({
    name: 'fin.webhook.attempts',
    description: 'Webhook delivery attempts, by event type and outcome (delivered or failed).',
    unit: '{attempt}',
  });
  const duration = instrumentation.histogram(
    {
      name: 'fin.webhook.attempt.duration',
      description: "Latency of webhook delivery attempts, until the receiver's status or the timeout.",
      unit: 's',
    },
    HTTP_DURATION_BUCKETS,
  );
  const dead = instrumentation.counter({
    name: 'fin.webhook.dead',
    description: 'Webhook events that failed every attempt of the retry schedule.',
    unit: '{event}',
  });
  return {
    attempt: (event, url, send) => {
      // The receiver's origin only: a URL's path or query may carry a partner's own token.
      const origin = new URL(url).origin;
      const attributes = { 'fin.webhook.type': event.type, 'server.address': new URL(url).hostname };
      return instrumentation.span(
        'webhook.deliver',
        {
          kind: 'client',
          attributes: { ...attributes, 'fin.webhook.id': event.eventId, 'url.origin': origin },
        },
        async (span: SpanHandle) => {
          const started = performance.now();
          const result = await send();
          const outcome = result.delivered ? 'delivered' : 'failed';
          span.set({
            'fin.webhook.outcome': result.outcome,
            'fin.webhook.attempt': event.attempts + 1,
            ...(result.status ? { 'http.response.status_code': result.status } : {}),
          });
          if (!result.delivered) span.fail(result.outcome);
          attempts(1, { ...attributes, 'fin.webhook.outcome': outcome });
          duration((performance.now() - started) / 1000, { ...attributes, 'fin.webhook.outcome': outcome });
          return result;
        },
      );
    },
    dead: (event) => dead(1, { 'fin.webhook.type': event.type }),
  };
}

/** Events a backlog gauge reads at most per partner and collection: a value at this cap means "this many or more". */
export const WEBHOOK_BACKLOG_CAP = 1000;

/**
 * `fin.webhooks.backlog`: each subscribed partner's undelivered (`PENDING`) events, read from the store at each
 * collection, so one partner's stalled receiver shows as its own line. Returns the function that stops it; a
 * store that cannot answer skips that collection's value.
 */
export function watchWebhookBacklog(
  store: Pick<WebhookEventStore, 'listWebhookEvents'>,
  partnerIds: readonly string[],
  instrumentation: Instrumentation,
): () => void {
  if (partnerIds.length === 0) return () => {};
  return instrumentation.gauges(
    {
      backlog: {
        name: 'fin.webhooks.backlog',
        description: `Webhook events not yet delivered (PENDING), per partner (capped at ${WEBHOOK_BACKLOG_CAP}).`,
        unit: '{event}',
      },
    },
    async (report) => {
      const counts = await Promise.all(
        partnerIds.map((partnerId) =>
          store
            .listWebhookEvents({ clientId: partnerId, status: 'PENDING', limit: WEBHOOK_BACKLOG_CAP })
            .then((pending) => ({ partnerId, count: pending.length }))
            .catch(() => undefined),
        ),
      );
      for (const counted of counts) {
        if (counted) report('backlog', counted.count, { 'fin.partner.id': counted.partnerId });
      }
    },
  );
}
