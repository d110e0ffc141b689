// The POS vendor's webhook receiver in the demo: node:http with createNodeWebhookHandler, verifying every delivery it gets.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEvent } from '@fin/authorization-client';
import { createNodeWebhookHandler } from '@fin/authorization-client/node';
import { generateWebhookSecret } from '@fin/core/webhooks';
import type { DemoClock } from './demo-clock.js';
import { waiters } from './waiters.js';

export interface ReceivedWebhook {
  event: WebhookEvent;
  webhookId: string;
}

export interface DemoWebhookReceiver {
  /** The subscription's secret, given to the financing service (a real POS gets it from the financing team). */
  readonly secret: string;
  /** Starts listening on loopback; resolves with the URL the financing service delivers to. */
  start(): Promise<string>;
  /** The first verified event for which `matches` holds (already received or still to come); rejects after `timeoutMs`. */
  next(
    what: string,
    matches: (received: ReceivedWebhook) => boolean,
    timeoutMs: number,
  ): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

/** Verifies on the demo's clock: the service signs with it, and it may run minutes ahead of the real one. */
export function webhookReceiver(clock: DemoClock): DemoWebhookReceiver {
  const secret = generateWebhookSecret();
  const received: ReceivedWebhook[] = [];
  const arrivals = waiters<ReceivedWebhook>();
  const handler = createNodeWebhookHandler({
    secrets: secret,
    clock,
    onEvent: (event, { webhookId }) => {
      // At least once: a delivery seen before is answered 2xx again and not kept twice.
      if (received.some((r) => r.webhookId === webhookId)) return;
      const entry = { event, webhookId };
      received.push(entry);
      arrivals.notify(entry);
    },
  });
  const server = createServer(handler);
  return {
    secret,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/fin-webhooks`;
    },
    next(what, matches, timeoutMs) {
      const found = received.find(matches);
      return found ? Promise.resolve(found) : arrivals.next(what, matches, timeoutMs);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
