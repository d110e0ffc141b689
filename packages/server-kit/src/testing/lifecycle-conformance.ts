// The Store conformance suite's lifecycle part (issue 37, DESIGN 27): what a purge removes after its retention, and what it never removes.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdStoreOf } from '../holds/hold-store-of.js';
import type { AuthorizationRecord } from '../ports/records.js';
import { PROPOSAL_PURGE_MARGIN_MS, type PurgeInput, retentionPolicy } from '../ports/retention.js';
import type { Store } from '../ports/store.js';
import type { NewWebhookEvent } from '../ports/webhook-events.js';
import { deviceImei } from './cart-fixture.js';
import { holdFixture } from './hold-store-conformance.js';
import { authorizationFixture, confirmedRecord, proposalFixture } from './record-fixtures.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = new Date('2026-03-02T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
/** A day: far enough past every short retention below that a test's clock jump clears them all. */
const DAY_AFTER = 24 * HOUR;

/** Short retentions, so a test moves the clock by hours, not months. */
const retention = retentionPolicy.parse({
  tokensMs: HOUR,
  endedHoldsMs: HOUR,
  unusedProposalsMs: 2 * HOUR,
  deliveredEventsMs: HOUR,
  deadEventsMs: 2 * HOUR,
  cancelledAuthorizationsMs: 3 * HOUR,
  expiredAuthorizationsMs: 4 * HOUR,
});
const IDEMPOTENCY_MS = HOUR;
const purgeAt = (now: Date): PurgeInput => ({ now, retentionMs: IDEMPOTENCY_MS, retention });

let devices = 500_000;
/** A device no other test of this run used: records of one store never meet on R-10 by accident. */
const nextImei = () => deviceImei(devices++);

/** Run inside `describeStoreConformance`: `store()` is the store of the current test. */
export function describeLifecycleConformance(store: () => Store): void {
  describe('lifecycle: purge after retention (issue 37, DESIGN 27)', () => {
    /** Stores an authorization with its own new proposal, then moves it through `steps` (each a whole next record). */
    const stored = async (steps: ((record: AuthorizationRecord) => Partial<AuthorizationRecord>)[] = []) => {
      const proposal = proposalFixture();
      let record = authorizationFixture({ imei: nextImei(), proposalId: proposal.proposalId });
      expect(
        await store().createAuthorization({ authorization: record, newProposal: proposal, now: T0 }),
      ).toEqual({
        ok: true,
      });
      for (const step of steps) {
        const next = { ...record, ...step(record) };
        const result = await store().updateAuthorization({
          record: next,
          expectedVersion: record.version,
          now: new Date(next.updatedAt),
        });
        if (!result.ok) throw new Error(`fixture write refused: ${result.reason}`);
        record = result.record;
      }
      return record;
    };
    const confirm = (record: AuthorizationRecord) => confirmedRecord(record, `ctr_${randomUUID()}`);
    const cancel = (): Partial<AuthorizationRecord> => ({
      status: 'CANCELLED',
      cancellation: {
        reason: 'CUSTOMER_REQUEST',
        cancelledAt: at(3 * MINUTE).toISOString(),
        noticedAt: at(3 * MINUTE).toISOString(),
        verification: 'VERIFIED',
        attempts: 1,
        nextAttemptAt: null,
        verifiedAt: at(4 * MINUTE).toISOString(),
      },
      updatedAt: at(4 * MINUTE).toISOString(),
    });
    const expire = (): Partial<AuthorizationRecord> => ({
      status: 'EXPIRED',
      updatedAt: at(20 * MINUTE).toISOString(),
    });

    it('DESIGN 27: ended authorizations leave the live tables after their retention; active ones never do, and R-10 still holds', async () => {
      const confirmed = await stored([confirm]);
      const cancelled = await stored([confirm, cancel]);
      const expired = await stored([expire]);
      const overdue = await stored();
      const ids = [confirmed, cancelled, expired, overdue].map((r) => r.authorizationId);
      const present = async () =>
        (await Promise.all(ids.map((id) => store().getAuthorization(id)))).map((r) => r !== undefined);

      // The cancelled record last changed at 4 minutes, the expired one at 20.
      await store().purgeExpired(purgeAt(at(4 * MINUTE + retention.cancelledAuthorizationsMs - 1)));
      expect(await present()).toEqual([true, true, true, true]);
      await store().purgeExpired(purgeAt(at(4 * MINUTE + retention.cancelledAuthorizationsMs)));
      expect(await present()).toEqual([true, false, true, true]);
      await store().purgeExpired(purgeAt(at(20 * MINUTE + retention.expiredAuthorizationsMs - 1)));
      expect(await present()).toEqual([true, false, true, true]);
      await store().purgeExpired(purgeAt(at(20 * MINUTE + retention.expiredAuthorizationsMs)));
      expect(await present()).toEqual([true, false, false, true]);

      // A cancelled record's proposal leaves with it: never offered to a new sale.
      expect(await store().getProposal(cancelled.proposalId)).toBeUndefined();
      expect(await store().getProposal(confirmed.proposalId)).toBeDefined();
      const later = at(DAY_AFTER);
      expect(await store().findActiveByImei({ imei: confirmed.imei, now: later })).toMatchObject({
        status: 'CONFIRMED',
      });
      const again = authorizationFixture({ imei: confirmed.imei, issuedAt: later.toISOString() });
      expect(await store().createAuthorization({ authorization: again, now: later })).toEqual({
        ok: false,
        reason: 'imei_already_financed',
      });
      // The devices of the records that left are free, as they were before.
      const reuse = authorizationFixture({ imei: cancelled.imei, issuedAt: later.toISOString() });
      expect(await store().createAuthorization({ authorization: reuse, now: later })).toEqual({ ok: true });
    });

    it('LC-3: an unused proposal is purged once no longer offered; one a stored authorization uses never is', async () => {
      const unused = proposalFixture({ clientTaxId: '11144477735' });
      await store().insertProposal(unused);
      const confirmed = await stored([confirm]);
      const cutoff = retention.unusedProposalsMs + PROPOSAL_PURGE_MARGIN_MS;
      await store().purgeExpired(purgeAt(at(cutoff - 1)));
      expect(await store().getProposal(unused.proposalId)).toBeDefined();
      await store().purgeExpired(purgeAt(at(cutoff)));
      expect(await store().getProposal(unused.proposalId)).toBeUndefined();
      expect(await store().getProposal(confirmed.proposalId)).toBeDefined();
      expect(
        await store().findUnusedProposal({ clientTaxId: '11144477735', storeId: 'store-1', now: at(cutoff) }),
      ).toBeUndefined();
    });

    it('webhook events: delivered and dead ones go after their retention, pending ones never, and numbering continues', async () => {
      const record = await stored();
      const event = (): NewWebhookEvent => ({
        eventId: `evt_${randomUUID()}`,
        type: 'cancellation.contradicted',
        clientId: record.clientId,
        authorizationId: record.authorizationId,
        occurredAt: T0.toISOString(),
        data: { authorizationId: record.authorizationId, storeId: record.storeId, status: record.status },
      });
      let version = record.version;
      const emit = async () => {
        const result = await store().updateAuthorization({
          record: { ...record, version },
          expectedVersion: version,
          now: T0,
          events: [event()],
        });
        if (!result.ok) throw new Error(result.reason);
        version = result.record.version;
      };
      const settle = async (status: 'DELIVERED' | 'DEAD') => {
        const lease = { owner: status, now: T0, until: at(MINUTE) };
        const [due] = await store().claimDueWebhookEvents({ now: T0, limit: 1, lease });
        const recorded = await store().recordWebhookAttempt({
          eventId: due!.eventId,
          owner: status,
          status,
          attempts: 1,
          nextAttemptAt: null,
          deliveredTo: status === 'DELIVERED' ? ['https://receiver.example/hook'] : [],
          now: T0,
        });
        expect(recorded).toBe(true);
      };
      await emit();
      await settle('DELIVERED');
      await emit();
      await settle('DEAD');
      await emit();
      const sequences = async () =>
        (await store().listWebhookEvents({ authorizationId: record.authorizationId })).map((e) => [
          e.sequence,
          e.status,
        ]);

      await store().purgeExpired(purgeAt(at(retention.deliveredEventsMs)));
      expect(await sequences()).toEqual([
        [2, 'DEAD'],
        [3, 'PENDING'],
      ]);
      await store().purgeExpired(purgeAt(at(retention.deadEventsMs + DAY_AFTER)));
      expect(await sequences()).toEqual([[3, 'PENDING']]);
      await emit();
      expect(await sequences()).toEqual([
        [3, 'PENDING'],
        [4, 'PENDING'],
      ]);
    });

    it('stock holds: an ended hold goes after its retention, a hold still looked after never', async (context) => {
      if (typeof store().insertHold !== 'function') return context.skip();
      const holds = holdStoreOf(store());
      const ended = holdFixture({ state: 'RELEASED', nextCheckAt: null });
      const live = holdFixture({ nextCheckAt: at(10 * HOUR).toISOString() });
      await holds.insertHold(ended);
      await holds.insertHold(live);
      await store().purgeExpired(purgeAt(at(retention.endedHoldsMs - 1)));
      expect(await holds.getHold(ended)).toBeDefined();
      await store().purgeExpired(purgeAt(at(retention.endedHoldsMs)));
      expect(await holds.getHold(ended)).toBeUndefined();
      expect(await holds.getHold(live)).toBeDefined();
    });

    it('property: a purge never removes an unexpired idempotency answer, an active authorization or an offered proposal', async () => {
      let run = 0;
      const kinds = ['authorized', 'confirmed', 'cancelled', 'expired', 'proposal', 'answer'] as const;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({ kind: fc.constantFrom(...kinds), age: fc.integer({ min: 0, max: 5 * HOUR }) }),
            {
              minLength: 1,
              maxLength: 6,
            },
          ),
          async (items) => {
            // Each run on its own stretch of time, well after the last: earlier runs' rows are long past.
            run += 1;
            const now = new Date(T0.getTime() + run * 10 * DAY_AFTER);
            const checks: (() => Promise<boolean>)[] = [];
            for (const { kind, age } of items) {
              const when = new Date(now.getTime() - age);
              checks.push(await seed(kind, when, age));
            }
            await store().purgeExpired(purgeAt(now));
            for (const check of checks) expect(await check()).toBe(true);
          },
        ),
        { numRuns: 12 },
      );
    });

    /** Stores one item of `kind` dated `when`; returns whether the purge treated it as it must. */
    const seed = async (kind: string, when: Date, age: number): Promise<() => Promise<boolean>> => {
      const iso = when.toISOString();
      if (kind === 'proposal') {
        const proposal = proposalFixture({ approvedAt: iso });
        await store().insertProposal(proposal);
        const kept = age < retention.unusedProposalsMs + PROPOSAL_PURGE_MARGIN_MS;
        return async () => ((await store().getProposal(proposal.proposalId)) !== undefined) === kept;
      }
      if (kind === 'answer') {
        const ref = { clientId: 'partner-a', key: randomUUID(), owner: 'first', fingerprint: 'fp' };
        const claim = { ...ref, retentionMs: IDEMPOTENCY_MS, leaseMs: 30_000 };
        await store().claimWrite({ ...claim, now: when });
        const response = { status: 200, headers: {}, body: { ok: true } };
        await store().completeIdempotencyKey({ ...ref, response, now: when });
        const replayed = age < IDEMPOTENCY_MS;
        return async () => {
          const later = new Date(when.getTime() + age);
          const answer = await store().claimWrite({ ...claim, owner: 'second', now: later });
          return (answer.outcome === 'completed') === replayed;
        };
      }
      const proposal = proposalFixture({ approvedAt: iso });
      const record = authorizationFixture({
        imei: nextImei(),
        proposalId: proposal.proposalId,
        issuedAt: iso,
        updatedAt: iso,
      });
      await store().createAuthorization({ authorization: record, newProposal: proposal, now: when });
      if (kind === 'confirmed' || kind === 'cancelled' || kind === 'expired') {
        const status = kind === 'confirmed' ? 'CONFIRMED' : kind === 'cancelled' ? 'CANCELLED' : 'EXPIRED';
        const result = await store().updateAuthorization({
          record: { ...record, status, updatedAt: iso },
          expectedVersion: 1,
          now: when,
        });
        if (!result.ok) throw new Error(result.reason);
      }
      const kept =
        kind === 'authorized' ||
        kind === 'confirmed' ||
        age <
          (kind === 'cancelled' ? retention.cancelledAuthorizationsMs : retention.expiredAuthorizationsMs);
      return async () => {
        const found = await store().getAuthorization(record.authorizationId);
        const proposalKept = kind === 'authorized' || kind === 'confirmed';
        const proposalOk = !proposalKept || (await store().getProposal(proposal.proposalId)) !== undefined;
        return (found !== undefined) === kept && proposalOk;
      };
    };
  });
}
