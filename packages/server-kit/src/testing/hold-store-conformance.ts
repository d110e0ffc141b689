// The Store conformance suite's stock holds (issue 30): insert once, compare-and-set, due listing under a worker lease; every store that keeps holds runs it.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdStoreOf } from '../holds/hold-store-of.js';
import type { HoldRecord } from '../ports/hold-record.js';
import type { HoldStore } from '../ports/hold-store.js';
import type { Store } from '../ports/store.js';

const T0 = new Date('2026-03-02T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** A valid hold just placed at `T0` (30 minutes long, due at once); override what the test is about. */
export function holdFixture(overrides: Partial<HoldRecord> = {}): HoldRecord {
  return {
    partnerId: 'partner-a',
    reservationId: `res-${randomUUID()}`,
    storeId: 'store-1',
    imei: '356938035643809',
    proposalId: null,
    state: 'ACTIVE',
    expiresAt: at(30 * 60_000).toISOString(),
    releaseReason: null,
    extendedFor: null,
    attempts: 0,
    nextCheckAt: T0.toISOString(),
    version: 1,
    createdAt: T0.toISOString(),
    updatedAt: T0.toISOString(),
    ...overrides,
  };
}

const lease = (owner: string, now: Date, ms = 60_000) => ({
  owner,
  now,
  until: new Date(now.getTime() + ms),
});

export function describeHoldStoreConformance(name: string, makeStore: () => Store | Promise<Store>): void {
  describe(`Store conformance, stock holds: ${name}`, () => {
    let store: Store;
    let holds: HoldStore;
    beforeEach(async () => {
      store = await makeStore();
      holds = holdStoreOf(store);
    });
    afterEach(async () => {
      await store.close();
    });

    it('HOLD-10: a hold is stored once per partner and reservation id, and read back equal, never shared', async () => {
      const hold = holdFixture({ proposalId: 'prop-1', lastOutcome: 'placed' });
      expect(await holds.insertHold(hold)).toBe(true);
      expect(await holds.insertHold({ ...hold, storeId: 'store-2' })).toBe(false);
      expect(await holds.insertHold({ ...hold, partnerId: 'partner-b' })).toBe(true);
      const read = await holds.getHold(hold);
      expect(read).toEqual(hold);
      read!.state = 'RELEASED';
      expect((await holds.getHold(hold))?.state).toBe('ACTIVE');
      expect(await holds.getHold({ partnerId: 'partner-a', reservationId: 'unknown' })).toBeUndefined();
    });

    it('HOLD-10: updateHold is compare-and-set on version: of two writers of one version, one wins', async () => {
      const hold = holdFixture();
      await holds.insertHold(hold);
      const results = await Promise.all(
        (['RELEASED', 'COMMITTED'] as const).map((state) =>
          holds.updateHold({ record: { ...hold, state, nextCheckAt: null }, expectedVersion: 1 }),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      const stored = await holds.getHold(hold);
      expect(stored?.version).toBe(2);
      expect(stored?.nextCheckAt).toBeNull();
      expect(await holds.updateHold({ record: hold, expectedVersion: 1 })).toEqual({
        ok: false,
        reason: 'stale',
      });
      const missing = holdFixture();
      expect(await holds.updateHold({ record: missing, expectedVersion: 1 })).toEqual({
        ok: false,
        reason: 'stale',
      });
    });

    it('HOLD-10: listDueHolds returns the holds due by now, earliest first, never an ended one', async () => {
      const late = holdFixture({ nextCheckAt: at(2000).toISOString() });
      const early = holdFixture({ nextCheckAt: at(1000).toISOString() });
      const future = holdFixture({ nextCheckAt: at(60_000).toISOString() });
      const ended = holdFixture({ nextCheckAt: null, state: 'RELEASED' });
      for (const hold of [late, early, future, ended]) await holds.insertHold(hold);
      const due = await holds.listDueHolds({ now: at(5000), limit: 10 });
      expect(due.map((hold) => hold.reservationId)).toEqual([early.reservationId, late.reservationId]);
      expect(await holds.listDueHolds({ now: at(5000), limit: 1 })).toHaveLength(1);
    });

    it('HOLD-10: a leased listing hides its holds from other leases until the lease ends', async () => {
      const holdsDue = [holdFixture(), holdFixture(), holdFixture()];
      for (const hold of holdsDue) await holds.insertHold(hold);
      const first = await holds.listDueHolds({ now: T0, limit: 2, lease: lease('worker-1', T0) });
      const second = await holds.listDueHolds({ now: T0, limit: 10, lease: lease('worker-2', T0) });
      expect(first).toHaveLength(2);
      expect(second).toHaveLength(1);
      const ids = new Set([...first, ...second].map((hold) => hold.reservationId));
      expect(ids.size).toBe(3);
      expect(
        await holds.listDueHolds({ now: at(1000), limit: 10, lease: lease('worker-3', at(1000)) }),
      ).toEqual([]);
      // A crashed worker's lease ends: its holds are listed again.
      const later = at(61_000);
      expect(
        await holds.listDueHolds({ now: later, limit: 10, lease: lease('worker-3', later) }),
      ).toHaveLength(3);
    });
  });
}
