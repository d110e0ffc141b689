// Issue 37 §2: delivery fair across partners (a stalled receiver delays only its own) and honest (every attempt recorded, whatever other lanes meet).
import { randomUUID } from 'node:crypto';
import type { LogEntry } from '@fin/core';
import { generateWebhookSecret, WEBHOOK_DELIVERY_TIMEOUT_MS } from '@fin/core/webhooks';
import { memoryStore, type Store } from '@fin/server-kit';
import { authorizationFixture, deviceImei } from '@fin/server-kit/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { harness, PARTNER_A, PARTNER_B, T0 } from '../support/harness.js';

const SECRET = generateWebhookSecret();
const STALLED = 'https://stalled.partner-a.example/hooks';
const HEALTHY = 'https://healthy.partner-b.example/hooks';

/** `count` authorizations of `clientId`, each with one due contract.created, `ageMs` old. */
async function dueEvents(store: Store, clientId: string, count: number, ageMs: number, first = 0) {
  const ids: string[] = [];
  for (let n = first; n < first + count; n++) {
    const authorization = authorizationFixture({ imei: deviceImei(n), clientId });
    await store.createAuthorization({ authorization, now: T0 });
    const occurredAt = new Date(T0.getTime() - ageMs).toISOString();
    await store.updateAuthorization({
      record: { ...authorization, updatedAt: T0.toISOString() },
      expectedVersion: authorization.version,
      now: T0,
      events: [
        {
          eventId: `evt_${randomUUID()}`,
          type: 'contract.created',
          clientId,
          authorizationId: authorization.authorizationId,
          occurredAt,
          data: { authorizationId: authorization.authorizationId },
        },
      ],
    });
    ids.push(authorization.authorizationId);
  }
  return ids;
}

/** A receiver double per URL: the stalled one answers nothing until its attempt's signal aborts (the timeout). */
function receivers() {
  const calls = { stalled: 0, healthy: 0, healthyWhileStalledPending: 0, stalledPending: 0 };
  const fetch: typeof globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    if (String(input) === HEALTHY) {
      calls.healthy += 1;
      if (calls.stalledPending > 0) calls.healthyWhileStalledPending += 1;
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    calls.stalled += 1;
    calls.stalledPending += 1;
    return new Promise<Response>((_resolve, reject) =>
      init!.signal!.addEventListener('abort', () => {
        calls.stalledPending -= 1;
        reject(init!.signal!.reason);
      }),
    );
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

/** Lets pending promise work run (no timer moves): the WebCrypto signing, the store, the lanes. */
async function settle(done: () => boolean) {
  for (let turn = 0; turn < 10_000 && !done(); turn++) await new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('issue 37 §2: one partner stalled does not delay another', () => {
  it('WF-2: with partner A stalled at the delivery timeout and its backlog over the pass limit, partner B is attempted before any timeout fires', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const store = memoryStore();
    const { calls, fetch } = receivers();
    const h = harness({
      store,
      clients: [
        { ...PARTNER_A, webhooks: [{ url: STALLED, secrets: [SECRET] }] },
        { ...PARTNER_B, webhooks: [{ url: HEALTHY, secrets: [SECRET] }] },
      ],
      webhookDelivery: { fetch, random: () => 0 },
    });
    // A's 150 events are all older than B's one: by due time alone, B would not even be claimed.
    await dueEvents(store, PARTNER_A.clientId, 150, 60_000);
    const [healthyId] = await dueEvents(store, PARTNER_B.clientId, 1, 0, 500);
    const pass = h.service.webhooks.deliverDue({ limit: 100 });
    await settle(() => calls.healthy === 1 && calls.stalled === 8);
    // No timer has moved: B's attempt came while A's first eight were all still waiting on their timeout.
    expect(calls).toMatchObject({ healthy: 1, healthyWhileStalledPending: 1, stalled: 8, stalledPending: 8 });
    await vi.advanceTimersByTimeAsync(WEBHOOK_DELIVERY_TIMEOUT_MS);
    const summary = await pass;
    console.info(
      `[figures] WF-2 stalled partner beside a healthy one: healthy attempted after 0 ms of ${WEBHOOK_DELIVERY_TIMEOUT_MS} ms; pass ${JSON.stringify(summary)}`,
    );
    expect(summary).toEqual({
      claimed: 100,
      delivered: 1,
      retrying: 8,
      dead: 0,
      deferred: 91,
      unrecorded: 0,
    });
    expect((await h.service.webhooks.list({ authorizationId: healthyId }))[0]).toMatchObject({
      status: 'DELIVERED',
      attempts: 1,
    });
    // Honest rows: the eight attempts made are counted; the deferred ones are due again, unattempted, unleased.
    const stalled = await h.service.webhooks.list({ clientId: PARTNER_A.clientId, limit: 1000 });
    expect(stalled.filter((e) => e.attempts === 1).map((e) => e.lastOutcome)).toEqual(
      Array(8).fill('timeout'),
    );
    expect(stalled.filter((e) => e.attempts === 0)).toHaveLength(142);
    const next = await store.claimDueWebhookEvents({
      now: T0,
      limit: 1000,
      lease: { owner: 'probe', now: T0, until: new Date(T0.getTime() + 1000) },
    });
    expect(next).toHaveLength(142);
  });
});

describe('issue 37 §2: every attempt is recorded, whatever other lanes meet', () => {
  it('WF-3: a record write that fails is retried, one that keeps failing is logged at error; the other lanes are recorded', async () => {
    const inner = memoryStore();
    const failing = new Set<string>();
    const flaky = new Map<string, number>();
    const store: Store = {
      ...inner,
      async recordWebhookAttempt(attempt) {
        const left = flaky.get(attempt.eventId) ?? 0;
        if (failing.has(attempt.eventId) || left > 0) {
          flaky.set(attempt.eventId, left - 1);
          throw new Error('connection terminated unexpectedly');
        }
        return inner.recordWebhookAttempt(attempt);
      },
    };
    const sent = new Map<string, number>();
    const fetch: typeof globalThis.fetch = ((_input: string | URL | Request, init?: RequestInit) => {
      const id = new Headers(init?.headers).get('webhook-id')!;
      sent.set(id, (sent.get(id) ?? 0) + 1);
      return Promise.resolve(new Response(null, { status: 204 }));
    }) as typeof globalThis.fetch;
    const h = harness({
      store,
      clients: [{ ...PARTNER_A, webhooks: [{ url: HEALTHY, secrets: [SECRET] }] }, PARTNER_B],
      webhookDelivery: { fetch, random: () => 0 },
    });
    const ids = await dueEvents(store, PARTNER_A.clientId, 6, 0);
    const events = await Promise.all(
      ids.map(async (id) => (await h.service.webhooks.list({ authorizationId: id }))[0]!),
    );
    failing.add(events[0]!.eventId);
    flaky.set(events[1]!.eventId, 2);
    const summary = await h.service.webhooks.deliverDue();
    console.info(`[figures] WF-3 attempts under a failing record write: ${JSON.stringify(summary)}`);
    expect(summary).toEqual({ claimed: 6, delivered: 5, retrying: 0, dead: 0, deferred: 0, unrecorded: 1 });
    const rows = await Promise.all(
      ids.map(async (id) => (await h.service.webhooks.list({ authorizationId: id }))[0]!),
    );
    expect(rows.slice(1).map((e) => [e.status, e.attempts])).toEqual(Array(5).fill(['DELIVERED', 1]));
    expect(rows[0]).toMatchObject({ status: 'PENDING', attempts: 0 });
    const failures = h.logs.filter((e: LogEntry) => e.event === 'webhook.record_failed');
    expect(failures).toEqual([expect.objectContaining({ webhookId: events[0]!.eventId, retries: 3 })]);
    // Its lease ends (4 x the timeout); the store answers again: sent once more, same webhook-id, now recorded.
    failing.clear();
    h.clock.advance(4 * WEBHOOK_DELIVERY_TIMEOUT_MS);
    expect(await h.service.webhooks.deliverDue()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(sent.get(events[0]!.eventId)).toBe(2);
    expect([...sent.values()].filter((n) => n === 1)).toHaveLength(5);
  });
});
