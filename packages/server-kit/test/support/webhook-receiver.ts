// Test helper: a real webhook receiver on 127.0.0.1 that records every delivery and answers as the test decides.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Delivery {
  path: string;
  id: string;
  timestamp: number;
  signature: string;
  correlationId: string | undefined;
  requestId: string | undefined;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: the event as JSON, read by the tests
  event: any;
  /** What the receiver answered (or 'hang'). */
  answered: number | 'hang';
  /** Deliveries of the same webhook-id in flight at this one's arrival (0 unless claimed twice at once). */
  concurrent: number;
}

export type Answer = number | 'hang' | { status: number; headers: Record<string, string> };

/**
 * `answer(delivery, n)` decides each answer (n: the deliveries of that webhook-id so far, 1 first); default 204.
 * `hang` never answers (until `close`).
 */
export async function startReceiver(answer: (delivery: Delivery, n: number) => Answer = () => 204) {
  const deliveries: Delivery[] = [];
  const counts = new Map<string, number>();
  const inFlight = new Map<string, number>();
  const hanging = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: IncomingHttpHeaders = request.headers;
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(headers['webhook-id']);
      const delivery: Delivery = {
        path: request.url ?? '/',
        id,
        timestamp: Number(headers['webhook-timestamp']),
        signature: String(headers['webhook-signature']),
        correlationId: headers['x-correlation-id'] as string | undefined,
        requestId: headers['x-request-id'] as string | undefined,
        body,
        event: JSON.parse(body),
        answered: 204,
        concurrent: inFlight.get(id) ?? 0,
      };
      const n = (counts.get(id) ?? 0) + 1;
      counts.set(id, n);
      inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
      const decided = answer(delivery, n);
      deliveries.push(delivery);
      const done = () => inFlight.set(id, (inFlight.get(id) ?? 1) - 1);
      if (decided === 'hang') {
        delivery.answered = 'hang';
        const end = () => {
          done();
          response.destroy();
        };
        hanging.add(end);
        response.on('close', () => {
          hanging.delete(end);
          done();
        });
        return;
      }
      const { status, headers: extra } =
        typeof decided === 'number' ? { status: decided, headers: {} } : decided;
      delivery.answered = status;
      response.writeHead(status, extra);
      response.end(() => done());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    origin: `http://127.0.0.1:${port}`,
    deliveries,
    /** Deliveries answered 2xx. */
    acknowledged: () => deliveries.filter((d) => typeof d.answered === 'number' && d.answered < 300),
    async close() {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Whether the `standardwebhooks` package signs this delivery's id, timestamp and body with `secret` exactly as
 * one of the signatures we sent (its own `verify` also checks the timestamp against the real clock, which
 * tests on a manual clock do not share: `verifiedByStandardWebhooks` does that where the clock is real).
 */
export function signedAsStandardWebhooks(delivery: Delivery, secret: string): boolean {
  const expected = new Webhook(secret).sign(delivery.id, new Date(delivery.timestamp * 1000), delivery.body);
  return delivery.signature.split(' ').includes(expected);
}

/** `standardwebhooks`' own verify (signature and a 5-minute timestamp tolerance on the real clock). */
export function verifiedByStandardWebhooks(delivery: Delivery, secret: string): unknown {
  return new Webhook(secret).verify(delivery.body, {
    'webhook-id': delivery.id,
    'webhook-timestamp': String(delivery.timestamp),
    'webhook-signature': delivery.signature,
  });
}

/** Events as the store lists them: enough to check delivery against them. */
interface StoredEvent {
  eventId: string;
  authorizationId: string;
  sequence: number;
}

/**
 * How `deliveries` (in arrival order) kept the promise for `events`: those never acknowledged (2xx), and
 * attempts made before an earlier event of the same authorization was acknowledged (out of order).
 */
export function deliveryAudit(deliveries: readonly Delivery[], events: readonly StoredEvent[]) {
  const acknowledgedAt = new Map<string, number>();
  deliveries.forEach((d, i) => {
    if (typeof d.answered === 'number' && d.answered < 300 && !acknowledgedAt.has(d.id))
      acknowledgedAt.set(d.id, i);
  });
  const undelivered = events.filter((e) => !acknowledgedAt.has(e.eventId)).map((e) => e.eventId);
  const outOfOrder: string[] = [];
  for (const event of events) {
    const first = deliveries.findIndex((d) => d.id === event.eventId);
    for (const earlier of events) {
      if (earlier.authorizationId !== event.authorizationId || earlier.sequence >= event.sequence) continue;
      if (!((acknowledgedAt.get(earlier.eventId) ?? Number.POSITIVE_INFINITY) < first))
        outOfOrder.push(event.eventId);
    }
  }
  return { acknowledged: acknowledgedAt.size, undelivered, outOfOrder };
}
