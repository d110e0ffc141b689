// Webhook delivery (issue 26 §3-§4): signed Standard Webhooks deliveries to a real loopback receiver, retries, order, dead and replay.
import { type SaleStatus, verifyWebhook } from '@fin/core';
import { generateWebhookSecret } from '@fin/core/webhooks';
import { startWorkerLoop, WEBHOOK_RETRY_SCHEDULE_MS } from '@fin/server-kit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CUSTOMER,
  cart,
  confirmation,
  deviceImei,
  harness,
  MINUTE,
  PARTNER_A,
  PARTNER_B,
  saleSearchDouble,
  T0,
} from '../support/harness.js';
import {
  type Answer,
  type Delivery,
  signedAsStandardWebhooks,
  startReceiver,
  verifiedByStandardWebhooks,
} from '../support/webhook-receiver.js';

const HOUR = 60 * MINUTE;
const JOURNEY = '6f1c7d1e-8a42-4c55-9d0e-3b7a1f2c9e42';
const SECRET = generateWebhookSecret();
const NEXT_SECRET = generateWebhookSecret();
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function setup(answer?: (delivery: Delivery, n: number) => Answer, events?: ['authorization.expired']) {
  const receiver = await startReceiver(answer);
  receivers.push(receiver);
  const pos = saleSearchDouble();
  const webhooks = [{ url: receiver.url, secrets: [SECRET, NEXT_SECRET], ...(events ? { events } : {}) }];
  const h = harness({
    clients: [{ ...PARTNER_A, saleSearch: pos.saleSearch, webhooks }, PARTNER_B],
    // No jitter: the waits are the published schedule exactly.
    webhookDelivery: { random: () => 0, timeoutMs: 500 },
  });
  return { h, pos, receiver };
}

const sale = (status: SaleStatus['status']): SaleStatus => ({
  status,
  saleNumber: 'S-1001',
  saleDate: new Date(T0.getTime() + MINUTE).toISOString(),
});

async function confirmedSale(h: Awaited<ReturnType<typeof setup>>['h'], imei = deviceImei(1)) {
  const headers = { 'x-correlation-id': JOURNEY };
  const id = (await h.authorize(cart({ imei }), { headers })).body.data.authorizationId as string;
  const confirmed = await h.confirm(id, confirmation(new Date(T0.getTime() + MINUTE)), { headers });
  expect(confirmed.status).toBe(200);
  return id;
}

describe('webhook delivery (Standard Webhooks v1)', () => {
  it('a confirm writes contract.created, delivered signed per secret, with the journey correlation id and no personal data', async () => {
    const { h, receiver } = await setup();
    const id = await confirmedSale(h);
    expect(await h.service.webhooks.deliverDue()).toEqual({
      claimed: 1,
      delivered: 1,
      retrying: 0,
      dead: 0,
      deferred: 0,
      unrecorded: 0,
    });
    const [delivery] = receiver.deliveries;
    expect(delivery!.event).toMatchObject({
      id: delivery!.id,
      type: 'contract.created',
      data: { authorizationId: id, storeId: 'store-a1', status: 'CONFIRMED', sequence: 1, source: 'CONFIRM' },
    });
    expect(delivery!.timestamp).toBe(Math.floor(h.clock.now().getTime() / 1000));
    expect(delivery!.correlationId).toBe(JOURNEY);
    expect(delivery!.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(delivery!.signature.split(' ')).toHaveLength(2);
    // Both secrets of the rotation verify it, with the standardwebhooks package and with our own verifier.
    for (const secret of [SECRET, NEXT_SECRET]) {
      expect(signedAsStandardWebhooks(delivery!, secret)).toBe(true);
      const verified = await verifyWebhook(
        delivery!.body,
        {
          'webhook-id': delivery!.id,
          'webhook-timestamp': String(delivery!.timestamp),
          'webhook-signature': delivery!.signature,
        },
        { secrets: [secret], clock: h.clock },
      );
      expect(verified.type).toBe('contract.created');
    }
    // And standardwebhooks' own verify (signature and its 5-minute tolerance), its clock set to the attempt's.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(delivery!.timestamp * 1000);
      expect(verifiedByStandardWebhooks(delivery!, NEXT_SECRET)).toMatchObject({ type: 'contract.created' });
    } finally {
      vi.useRealTimers();
    }
    expect(delivery!.body).not.toContain(CUSTOMER);
    expect(delivery!.body).not.toContain(deviceImei(1));
    const [listed] = await h.service.webhooks.list({ authorizationId: id });
    expect(listed).toMatchObject({ status: 'DELIVERED', attempts: 1, deliveredTo: [receiver.url] });
  });

  it('a failed attempt is retried on the published schedule, same webhook-id, new timestamp and X-Request-Id', async () => {
    const { h, receiver } = await setup((_, n) => (n <= 2 ? 500 : 204));
    await confirmedSale(h);
    expect((await h.service.webhooks.deliverDue()).retrying).toBe(1);
    h.clock.advance(WEBHOOK_RETRY_SCHEDULE_MS[0]! - 1);
    expect((await h.service.webhooks.deliverDue()).claimed).toBe(0);
    h.clock.advance(1);
    expect((await h.service.webhooks.deliverDue()).retrying).toBe(1);
    h.clock.advance(WEBHOOK_RETRY_SCHEDULE_MS[1]!);
    expect((await h.service.webhooks.deliverDue()).delivered).toBe(1);
    const [a, b, c] = receiver.deliveries;
    expect(new Set([a!.id, b!.id, c!.id]).size).toBe(1);
    expect(new Set([a!.requestId, b!.requestId, c!.requestId]).size).toBe(3);
    expect([b!.timestamp - a!.timestamp, c!.timestamp - b!.timestamp]).toEqual([5, 300]);
    expect(a!.body).toBe(c!.body);
  });

  it('an event failing every attempt of the schedule is DEAD (logged without secrets), and replay delivers it', async () => {
    let up = false;
    const { h, receiver } = await setup(() => (up ? 204 : 500));
    const id = await confirmedSale(h);
    for (let attempt = 1; attempt <= 8; attempt++) {
      await h.service.webhooks.deliverDue();
      h.clock.advance(11 * HOUR);
    }
    const [dead] = await h.service.webhooks.list({ status: 'DEAD' });
    expect(dead).toMatchObject({
      authorizationId: id,
      attempts: 8,
      lastOutcome: 'http_500',
      nextAttemptAt: null,
    });
    expect(receiver.deliveries).toHaveLength(8);
    expect((await h.service.webhooks.deliverDue()).claimed).toBe(0);
    const logged = JSON.stringify(h.logs);
    expect(h.logs.some((entry) => entry.event === 'webhook.dead')).toBe(true);
    for (const secret of [SECRET, NEXT_SECRET, receiver.deliveries[0]!.signature])
      expect(logged).not.toContain(secret);
    up = true;
    expect(await h.service.webhooks.replay({ clientId: PARTNER_A.clientId })).toEqual({ replayed: 1 });
    expect((await h.service.webhooks.deliverDue()).delivered).toBe(1);
    expect(receiver.deliveries.at(-1)!.id).toBe(dead!.eventId);
  });

  it('Retry-After of a 429 is honoured: the event is not due again before it', async () => {
    const { h, receiver } = await setup((_, n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '600' } } : 204,
    );
    await confirmedSale(h);
    await h.service.webhooks.deliverDue();
    h.clock.advance(WEBHOOK_RETRY_SCHEDULE_MS[0]!);
    expect((await h.service.webhooks.deliverDue()).claimed).toBe(0);
    h.clock.advance(600_000 - WEBHOOK_RETRY_SCHEDULE_MS[0]!);
    expect((await h.service.webhooks.deliverDue()).delivered).toBe(1);
    expect(receiver.deliveries).toHaveLength(2);
  });

  it('a redirect is not followed, and a receiver that does not answer within the timeout fails the attempt', async () => {
    const { h, receiver } = await setup((delivery, n) =>
      delivery.path !== '/hooks'
        ? 204
        : n === 1
          ? { status: 307, headers: { location: '/elsewhere' } }
          : 'hang',
    );
    const id = await confirmedSale(h);
    await h.service.webhooks.deliverDue();
    expect((await h.service.webhooks.list({ authorizationId: id }))[0]!.lastOutcome).toBe(
      'redirect_not_followed',
    );
    expect(receiver.deliveries.map((d) => d.path)).toEqual(['/hooks']);
    h.clock.advance(WEBHOOK_RETRY_SCHEDULE_MS[0]!);
    await h.service.webhooks.deliverDue();
    expect((await h.service.webhooks.list({ authorizationId: id }))[0]!.lastOutcome).toBe('timeout');
  });

  it('order per authorization: cancellation.verified is not sent while contract.created is undelivered', async () => {
    let up = false;
    const { h, pos, receiver } = await setup(() => (up ? 204 : 503));
    const id = await confirmedSale(h);
    await h.service.webhooks.deliverDue();
    pos.state.sales = [sale('CANCELLED')];
    expect((await h.cancel(id, { reason: 'CUSTOMER_REQUEST' })).body.data.verification).toBe('VERIFIED');
    h.clock.advance(HOUR);
    await h.service.webhooks.deliverDue();
    expect(receiver.deliveries.map((d) => d.event.type)).toEqual(['contract.created', 'contract.created']);
    up = true;
    h.clock.advance(HOUR);
    await h.service.webhooks.deliverDue();
    await h.service.webhooks.deliverDue();
    expect(receiver.acknowledged().map((d) => [d.event.type, d.event.data.sequence])).toEqual([
      ['contract.created', 1],
      ['cancellation.verified', 2],
    ]);
    expect(receiver.acknowledged()[1]!.event.data).toMatchObject({
      status: 'CANCELLED',
      verification: 'VERIFIED',
    });
  });

  it('a notice the sale search contradicts sends cancellation.contradicted; a subscription filtered by type gets only its types', async () => {
    const { h, pos, receiver } = await setup(undefined, ['authorization.expired']);
    const id = await confirmedSale(h);
    pos.state.sales = [sale('ACTIVE')];
    await h.cancel(id, { reason: 'CUSTOMER_REQUEST' });
    expect(await h.service.webhooks.deliverDue()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await h.service.webhooks.deliverDue()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(receiver.deliveries).toEqual([]);
    const events = await h.service.webhooks.list({ authorizationId: id });
    expect(events.map((e) => [e.type, e.status, e.attempts])).toEqual([
      ['contract.created', 'DELIVERED', 0],
      ['cancellation.contradicted', 'DELIVERED', 0],
    ]);
    expect(events[1]!.data).toMatchObject({ status: 'CONFIRMED', verification: 'CONTRADICTED' });
  });
});

describe('authorization.expired: only once no confirmation can arrive any more', () => {
  it('the expiry worker stores EXPIRED with its event after expiresAt plus the grace; a late confirm within the grace wins instead', async () => {
    const { h, receiver } = await setup();
    const lapsed = (await h.authorize(cart({ imei: deviceImei(1) }))).body.data.authorizationId as string;
    const late = (await h.authorize(cart({ imei: deviceImei(2) }))).body.data.authorizationId as string;
    h.clock.advance(15 * MINUTE + 30 * MINUTE);
    expect(await h.service.workers.expireAuthorizations()).toEqual({ expired: 0, skipped: 0 });
    expect((await h.confirm(late, confirmation(new Date(T0.getTime() + MINUTE)))).status).toBe(200);
    // A confirm is still accepted at expiresAt + grace exactly: the event comes once that instant has passed.
    h.clock.advance(30 * MINUTE);
    expect(await h.service.workers.expireAuthorizations()).toEqual({ expired: 0, skipped: 0 });
    h.clock.advance(1);
    expect(await h.service.workers.expireAuthorizations()).toEqual({ expired: 1, skipped: 0 });
    expect(await h.service.workers.expireAuthorizations()).toEqual({ expired: 0, skipped: 0 });
    expect((await h.retrieve(lapsed, { token: await h.freshToken() })).body.data.status).toBe('EXPIRED');
    await h.service.webhooks.deliverDue();
    expect(receiver.deliveries.map((d) => [d.event.type, d.event.data.authorizationId])).toEqual(
      expect.arrayContaining([
        ['authorization.expired', lapsed],
        ['contract.created', late],
      ]),
    );
    expect(receiver.deliveries).toHaveLength(2);
    const expired = receiver.deliveries.find((d) => d.event.type === 'authorization.expired')!;
    expect(expired.event.data).toMatchObject({
      status: 'EXPIRED',
      sequence: 1,
      expiresAt: new Date(T0.getTime() + 15 * MINUTE).toISOString(),
    });
  });
});

describe('operating the sender', () => {
  it('a delivery worker loop attaches like the others: readiness reports it, close() drains it', async () => {
    const { h, receiver } = await setup();
    await confirmedSale(h);
    let runs = 0;
    const delivered = new Promise<void>((resolve) => {
      const loop = startWorkerLoop((signal) => h.service.webhooks.deliverDue({ signal }), {
        name: 'webhooks',
        intervalMs: 10,
        onRun: () => {
          runs += 1;
          if (receiver.deliveries.length > 0) resolve();
        },
      });
      h.service.workers.attach(loop);
    });
    await delivered;
    expect((await h.service.health()).checks.workers).toEqual({ webhooks: 'running' });
    await h.service.close();
    expect((await h.service.health()).checks.workers).toEqual({ webhooks: 'stopped' });
    expect(runs).toBeGreaterThan(0);
  });

  it('subscriptions are checked at startup: https only off loopback, whsec_ secrets, known event types', async () => {
    const make = (webhooks: unknown) => () =>
      harness({ clients: [{ ...PARTNER_A, webhooks } as typeof PARTNER_A] });
    expect(make([{ url: 'http://pos.example/hooks', secrets: [SECRET] }])).toThrow(/https/);
    expect(make([{ url: 'https://pos.example/hooks', secrets: [] }])).toThrow(/at least one/);
    expect(make([{ url: 'https://pos.example/hooks', secrets: [` ${SECRET}`] }])).toThrow(/whitespace/);
    expect(make([{ url: 'https://pos.example/hooks', secrets: [SECRET], events: ['sale.made'] }])).toThrow(
      /unknown types: sale.made/,
    );
    expect(make([{ url: 'https://pos.example/hooks', secrets: [SECRET] }])).not.toThrow();
  });
});
