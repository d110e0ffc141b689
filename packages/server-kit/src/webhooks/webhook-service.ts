// service.webhooks: deliverDue (one pass of the sender), replay and list, for operators and support.

import type { Instrumentation } from '@fin/core/transport';
import { WEBHOOK_DELIVERY_TIMEOUT_MS } from '@fin/core/webhooks';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { WebhookEventQuery, WebhookEventRecord } from '../ports/webhook-events.js';
import { type DeliverDueOptions, deliverDue, type WebhookDeliverySummary } from './deliver-due.js';
import { webhookTelemetry } from './webhook-telemetry.js';

/** How the sender reaches receivers (`createFinancingService({ webhookDelivery })`); every field optional. */
export interface WebhookDeliveryOptions {
  /** Default the global fetch; tests and sandboxes pass their own. */
  fetch?: typeof fetch;
  /** The retry jitter's draw in [0, 1); default Math.random. */
  random?: () => number;
  /** Default `WEBHOOK_DELIVERY_TIMEOUT_MS` (15 s). */
  timeoutMs?: number;
}

export interface ReplayWebhooksInput {
  /** These events; or every event of `authorizationId`; or every DEAD event of `clientId`. */
  eventIds?: readonly string[];
  authorizationId?: string;
  clientId?: string;
}

export interface WebhookOperations {
  /** One delivery pass over the due events (drive it with the injected clock, or attach a `startWorkerLoop`). */
  deliverDue(options?: DeliverDueOptions): Promise<WebhookDeliverySummary>;
  /**
   * Sends events again from their first attempt (same `webhook-id`, so receivers deduplicate): dead ones after
   * an outage, or any for a partner who lost them. Returns how many were scheduled.
   */
  replay(input: ReplayWebhooksInput): Promise<{ replayed: number }>;
  /** Events and their delivery state (no personal data in them): by client, authorization or status. */
  list(query?: WebhookEventQuery): Promise<WebhookEventRecord[]>;
}

export function createWebhookOperations(
  deps: ServiceDeps,
  options: WebhookDeliveryOptions | undefined,
  instrumentation: Instrumentation,
  track: <T>(work: Promise<T>) => Promise<T>,
): WebhookOperations {
  const timeoutMs = options?.timeoutMs ?? WEBHOOK_DELIVERY_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
    throw new TypeError(`createFinancingService: webhookDelivery.timeoutMs must be a positive integer`);
  }
  const delivery = {
    fetch: options?.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init)),
    random: options?.random ?? Math.random,
    timeoutMs,
    // A claim outlives its attempt, so no other instance takes an event whose attempt is still running.
    leaseMs: 4 * timeoutMs,
    telemetry: webhookTelemetry(instrumentation),
  };
  return {
    deliverDue: (runOptions) => track(deliverDue(deps, delivery, runOptions)),
    async replay(input) {
      if (!input?.eventIds && input?.authorizationId === undefined && input?.clientId === undefined) {
        throw new TypeError('service.webhooks.replay: give eventIds, authorizationId or clientId');
      }
      const replayed = await deps.store.replayWebhookEvents({ ...input, now: deps.clock.now() });
      deps.logger?.info?.({ event: 'webhook.replayed', replayed });
      return { replayed };
    },
    list: (query = {}) => deps.store.listWebhookEvents(query),
  };
}
