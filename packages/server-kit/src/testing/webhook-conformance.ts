// The Store conformance suite's webhook part (issue 26): events written with their state change, leased in order, replayed.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuthorizationRecord } from '../ports/records.js';
import type { Store } from '../ports/store.js';
import type { NewWebhookEvent } from '../ports/webhook-events.js';
import { authorizationFixture } from './record-fixtures.js';

const MINUTE = 60_000;
const T0 = new Date('2026-03-02T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const imeis = ['356938035643809', '490154203237518', '352099001761481'];

const event = (
  record: AuthorizationRecord,
  type: NewWebhookEvent['type'] = 'cancellation.contradicted',
  now = T0,
): NewWebhookEvent => ({
  eventId: `evt_${randomUUID()}`,
  type,
  clientId: record.clientId,
  authorizationId: record.authorizationId,
  correlationId: 'journey-1',
  occurredAt: now.toISOString(),
  data: { authorizationId: record.authorizationId, storeId: record.storeId, status: record.status },
});

const lease = (owner: string, now = T0, ms = MINUTE) => ({ owner, now, until: new Date(now.getTime() + ms) });

/** Run inside `describeStoreConformance`: `store()` is the store of the current test. */
export function describeWebhookEventConformance(store: () => Store): void {
  describe('webhook events: written with their state change (issue 26)', () => {
    const created = async (imei = imeis[0]!) => {
      const authorization = authorizationFixture({ imei });
      await store().createAuthorization({ authorization, now: T0 });
      return (await store().getAuthorization(authorization.authorizationId))!;
    };
    /** Writes `record` unchanged but for `updatedAt`, with `events`; returns the result. */
    const touch = (
      record: AuthorizationRecord,
      events: NewWebhookEvent[],
      expectedVersion = record.version,
    ) =>
      store().updateAuthorization({
        record: { ...record, updatedAt: at(1).toISOString() },
        expectedVersion,
        now: T0,
        events,
      });

    it('an update stores its events with it, numbered 1, 2, 3 per authorization', async () => {
      const record = await created();
      expect((await touch(record, [event(record)])).ok).toBe(true);
      expect((await touch(record, [event(record)], record.version + 1)).ok).toBe(true);
      const events = await store().listWebhookEvents({ authorizationId: record.authorizationId });
      expect(events.map((e) => [e.sequence, e.status, e.attempts])).toEqual([
        [1, 'PENDING', 0],
        [2, 'PENDING', 0],
      ]);
      expect(events[0]).toMatchObject({ correlationId: 'journey-1', nextAttemptAt: T0.toISOString() });
    });

    it('a refused update (stale version, lost claim) stores no event, and no event is stored without its update', async () => {
      const record = await created();
      expect(await touch(record, [event(record)], record.version + 5)).toEqual({
        ok: false,
        reason: 'stale',
      });
      const lost = await store().updateAuthorization({
        record,
        expectedVersion: record.version,
        now: T0,
        answer: {
          clientId: 'partner-a',
          key: 'never-claimed',
          owner: 'nobody',
          now: T0,
          response: { status: 200, headers: {}, body: null },
        },
        events: [event(record)],
      });
      expect(lost).toEqual({ ok: false, reason: 'claim_lost' });
      expect(await store().listWebhookEvents({ authorizationId: record.authorizationId })).toEqual([]);
      expect((await store().getAuthorization(record.authorizationId))!.version).toBe(record.version);
    });

    it('a second contract.created or authorization.expired of one authorization is refused, with its update', async () => {
      const record = await created();
      expect((await touch(record, [event(record, 'authorization.expired')])).ok).toBe(true);
      const again = await touch(record, [event(record, 'authorization.expired')], record.version + 1);
      expect(again).toEqual({ ok: false, reason: 'stale' });
      expect((await store().getAuthorization(record.authorizationId))!.version).toBe(record.version + 1);
      expect(await store().listWebhookEvents({ authorizationId: record.authorizationId })).toHaveLength(1);
    });

    it('claims keep order per authorization: a later event waits until the earlier one is no longer PENDING', async () => {
      const record = await created();
      await touch(record, [event(record), event(record)]);
      const [first] = await store().claimDueWebhookEvents({ now: T0, limit: 10, lease: lease('a') });
      expect(first?.sequence).toBe(1);
      // Lease ended, still undelivered: the first again, never the second.
      const later = at(2 * MINUTE);
      const again = await store().claimDueWebhookEvents({ now: later, limit: 10, lease: lease('b', later) });
      expect(again.map((e) => e.sequence)).toEqual([1]);
      expect(
        await store().recordWebhookAttempt({
          eventId: first!.eventId,
          owner: 'a',
          status: 'DELIVERED',
          attempts: 1,
          nextAttemptAt: null,
          deliveredTo: ['https://pos.example/hooks'],
          now: later,
        }),
      ).toBe(false);
      expect(
        await store().recordWebhookAttempt({
          eventId: first!.eventId,
          owner: 'b',
          status: 'DELIVERED',
          attempts: 1,
          nextAttemptAt: null,
          deliveredTo: ['https://pos.example/hooks'],
          now: later,
        }),
      ).toBe(true);
      const next = await store().claimDueWebhookEvents({ now: later, limit: 10, lease: lease('c', later) });
      expect(next.map((e) => e.sequence)).toEqual([2]);
      const [delivered] = await store().listWebhookEvents({ status: 'DELIVERED' });
      expect(delivered).toMatchObject({
        deliveredTo: ['https://pos.example/hooks'],
        deliveredAt: later.toISOString(),
      });
    });

    it('WF-1: a claim takes a fair share per partner: the older backlog of one partner does not fill it', async () => {
      const [older, old] = [await created(imeis[0]), await created(imeis[1])];
      await touch(older, [event(older, undefined, at(-2 * MINUTE))]);
      await touch(old, [event(old, undefined, at(-MINUTE))]);
      const authorization = authorizationFixture({ imei: imeis[2], clientId: 'partner-b' });
      await store().createAuthorization({ authorization, now: T0 });
      const other = (await store().getAuthorization(authorization.authorizationId))!;
      await touch(other, [event(other)]);
      const claimed = await store().claimDueWebhookEvents({ now: T0, limit: 2, lease: lease('a') });
      expect(claimed.map((e) => e.authorizationId).sort()).toEqual(
        [older.authorizationId, other.authorizationId].sort(),
      );
      const rest = await store().claimDueWebhookEvents({ now: T0, limit: 2, lease: lease('b') });
      expect(rest.map((e) => e.authorizationId)).toEqual([old.authorizationId]);
    });

    it('concurrent claims share the due events out, each to one claimer; a retry is not due before its time', async () => {
      for (const imei of imeis) {
        const record = await created(imei);
        await touch(record, [event(record)]);
      }
      const claims = await Promise.all(
        ['a', 'b', 'c', 'd'].map((owner) =>
          store().claimDueWebhookEvents({ now: T0, limit: 1, lease: lease(owner) }),
        ),
      );
      const handed = claims.flat().map((e) => e.eventId);
      expect(handed).toHaveLength(imeis.length);
      expect(new Set(handed).size).toBe(imeis.length);
      const owner = ['a', 'b', 'c', 'd'][claims.findIndex((c) => c.length > 0)]!;
      const [retried] = claims.find((c) => c.length > 0)!;
      await store().recordWebhookAttempt({
        eventId: retried!.eventId,
        owner,
        status: 'PENDING',
        attempts: 1,
        nextAttemptAt: at(5000),
        deliveredTo: [],
        lastOutcome: 'http_500',
        now: T0,
      });
      const soon = at(4000);
      expect(await store().claimDueWebhookEvents({ now: soon, limit: 9, lease: lease('e', soon) })).toEqual(
        [],
      );
      const due = at(5000);
      const [again] = await store().claimDueWebhookEvents({ now: due, limit: 9, lease: lease('e', due) });
      expect(again).toMatchObject({ eventId: retried!.eventId, attempts: 1, lastOutcome: 'http_500' });
    });

    it('replay makes dead (or any) events PENDING again from their first attempt, same id', async () => {
      const record = await created();
      await touch(record, [event(record)]);
      const [claimed] = await store().claimDueWebhookEvents({ now: T0, limit: 1, lease: lease('a') });
      await store().recordWebhookAttempt({
        eventId: claimed!.eventId,
        owner: 'a',
        status: 'DEAD',
        attempts: 8,
        nextAttemptAt: null,
        deliveredTo: [],
        lastOutcome: 'timeout',
        now: T0,
      });
      expect(await store().claimDueWebhookEvents({ now: at(MINUTE), limit: 9, lease: lease('b') })).toEqual(
        [],
      );
      expect(await store().replayWebhookEvents({ clientId: record.clientId, now: at(MINUTE) })).toBe(1);
      const [replayed] = await store().listWebhookEvents({ authorizationId: record.authorizationId });
      expect(replayed).toMatchObject({ eventId: claimed!.eventId, status: 'PENDING', attempts: 0 });
      expect(replayed!.lastOutcome).toBeUndefined();
      expect(await store().replayWebhookEvents({ eventIds: [claimed!.eventId], now: at(MINUTE) })).toBe(1);
    });

    it('listExpiredWithoutEvent lists unconfirmed records expired in the window until their expired event exists', async () => {
      const record = await created();
      const window = { expiredBefore: at(60 * MINUTE), expiredAfter: T0, limit: 10 };
      expect((await store().listExpiredWithoutEvent(window)).map((r) => r.authorizationId)).toEqual([
        record.authorizationId,
      ]);
      expect(await store().listExpiredWithoutEvent({ ...window, expiredBefore: at(15 * MINUTE) })).toEqual(
        [],
      );
      await store().updateAuthorization({
        record: { ...record, status: 'EXPIRED' },
        expectedVersion: record.version,
        now: at(60 * MINUTE),
        events: [event(record, 'authorization.expired')],
      });
      expect(await store().listExpiredWithoutEvent(window)).toEqual([]);
    });
  });
}
