// Issue 26 §4: every webhook delivery attempt is a client span and counts in the fin.webhook.* metrics; none carries a secret or signature.
import { generateWebhookSecret } from '@fin/core/webhooks';
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  cart,
  confirmation,
  deviceImei,
  harness,
  MINUTE,
  PARTNER_A,
  PARTNER_B,
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
    // Closed, so their backlog gauges stop reporting into the next test's collections.
    await Promise.all([h.service.close(), lost.service.close()]);
  } finally {
    await Promise.all([receiver.close(), dead.close()]);
  }
});

it("issue 37 §2: fin.webhooks.backlog counts each subscribed partner's undelivered events, its own line per partner", async () => {
  let up = false;
  const fetch = (() =>
    Promise.resolve(new Response(null, { status: up ? 204 : 503 }))) as typeof globalThis.fetch;
  const h = harness({
    clients: [
      { ...PARTNER_A, webhooks: [{ url: 'https://a.example/hooks', secrets: [SECRET] }] },
      { ...PARTNER_B, webhooks: [{ url: 'https://b.example/hooks', secrets: [SECRET] }] },
    ],
    webhookDelivery: { fetch, random: () => 0 },
  });
  const backlog = async () =>
    Object.fromEntries(
      ((await sdk.collect()).get('fin.webhooks.backlog') ?? []).map((p) => [
        p.attributes['fin.partner.id'],
        p.value,
      ]),
    );
  for (const n of [1, 2]) {
    const id = (await h.authorize(cart({ imei: deviceImei(n) }))).body.data.authorizationId as string;
    await h.confirm(id, confirmation(new Date(T0.getTime() + MINUTE)));
  }
  expect(await backlog()).toEqual({ [PARTNER_A.clientId]: 2, [PARTNER_B.clientId]: 0 });
  await h.service.webhooks.deliverDue();
  expect(await backlog()).toEqual({ [PARTNER_A.clientId]: 2, [PARTNER_B.clientId]: 0 });
  up = true;
  h.clock.advance(5000);
  await h.service.webhooks.deliverDue();
  expect(await backlog()).toEqual({ [PARTNER_A.clientId]: 0, [PARTNER_B.clientId]: 0 });
  await h.service.close();
});
