// Issue 26 §4: every webhook delivery attempt is a client span and counts in the fin.webhook.* metrics; none carries a secret or signature.
import { generateWebhookSecret } from '@fin/core';
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  cart,
  confirmation,
  harness,
  MINUTE,
  PARTNER_A,
  T0,
} from '../../packages/server-kit/test/support/harness.js';
import { startReceiver } from '../../packages/server-kit/test/support/webhook-receiver.js';
import { guardSecrets } from '../reliability/support/secret-guard.js';
import { installOtelSdk, type OtelSdk, type Point } from './support/otel-sdk.js';

const guard = guardSecrets();
const SECRET = generateWebhookSecret();
guard.add('client secret', SECRET);
let sdk: OtelSdk;
beforeAll(() => {
  sdk = installOtelSdk();
  guard.watch('spans and metrics', () => sdk.text());
});
afterAll(() => sdk.shutdown());

const total = (points: Point[] | undefined, outcome?: string) =>
  (points ?? [])
    .filter((p) => outcome === undefined || p.attributes['fin.webhook.outcome'] === outcome)
    .reduce((sum, p) => sum + p.value, 0);

it('a failed then delivered event: two webhook.deliver client spans, attempts by outcome, latency, and a dead one counted', async () => {
  const receiver = await startReceiver((delivery, n) =>
    delivery.event.data.sequence === 1 && n === 1 ? 500 : 204,
  );
  const dead = await startReceiver(() => 503);
  try {
    const h = harness({
      clients: [{ ...PARTNER_A, webhooks: [{ url: receiver.url, secrets: [SECRET] }] }],
      webhookDelivery: { random: () => 0 },
    });
    const id = (await h.authorize(cart())).body.data.authorizationId as string;
    await h.confirm(id, confirmation(new Date(T0.getTime() + MINUTE)));
    await h.service.webhooks.deliverDue();
    h.clock.advance(5000);
    await h.service.webhooks.deliverDue();
    const spans = sdk.spans().filter((s) => s.name === 'webhook.deliver');
    expect(
      spans.map((s) => [s.kind, s.attributes['fin.webhook.outcome'], s.attributes['fin.webhook.attempt']]),
    ).toEqual([
      [SpanKind.CLIENT, 'http_500', 1],
      [SpanKind.CLIENT, 'delivered', 2],
    ]);
    expect(spans[0]!.attributes).toMatchObject({
      'fin.webhook.type': 'contract.created',
      'url.origin': receiver.origin,
    });
    for (const signature of receiver.deliveries.map((d) => d.signature))
      expect(sdk.text()).not.toContain(signature);

    const lost = harness({
      clients: [{ ...PARTNER_A, webhooks: [{ url: dead.url, secrets: [SECRET] }] }],
      webhookDelivery: { random: () => 0 },
    });
    const other = (await lost.authorize(cart())).body.data.authorizationId as string;
    await lost.confirm(other, confirmation(new Date(T0.getTime() + MINUTE)));
    for (let attempt = 0; attempt < 8; attempt++) {
      await lost.service.webhooks.deliverDue();
      lost.clock.advance(11 * 60 * MINUTE);
    }
    const collected = await sdk.collect();
    expect(total(collected.get('fin.webhook.attempts'), 'delivered')).toBe(1);
    expect(total(collected.get('fin.webhook.attempts'), 'failed')).toBe(9);
    expect(total(collected.get('fin.webhook.dead'))).toBe(1);
    expect(collected.get('fin.webhook.attempt.duration')?.length).toBeGreaterThan(0);
  } finally {
    await Promise.all([receiver.close(), dead.close()]);
  }
});
