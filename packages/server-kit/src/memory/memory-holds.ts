// The memory store's stock holds (issue 30): a map by partner and reservation id, compare-and-set writes, leases like the other workers'.

import { copyRecord as copy } from '../ports/copy-record.js';
import type { HoldRecord } from '../ports/hold-record.js';
import type { HoldStore } from '../ports/hold-store.js';

const keyOf = (ref: { partnerId: string; reservationId: string }) =>
  [ref.partnerId, ref.reservationId].join('\u0000');

export interface MemoryHolds {
  store: HoldStore;
  /** Deletes holds that ended (`nextCheckAt` null) and last changed at or before `cutoff`; returns how many. */
  purgeEnded(cutoff: Date): number;
}

export function memoryHolds(): MemoryHolds {
  const holds = new Map<string, HoldRecord>();
  /** Hold key -> end of the worker lease that holds it. */
  const leases = new Map<string, number>();
  const purgeEnded = (cutoff: Date) => {
    let purged = 0;
    for (const [key, hold] of holds) {
      if (hold.nextCheckAt !== null || Date.parse(hold.updatedAt) > cutoff.getTime()) continue;
      holds.delete(key);
      leases.delete(key);
      purged += 1;
    }
    return purged;
  };
  const store: HoldStore = {
    async insertHold(hold) {
      const key = keyOf(hold);
      if (holds.has(key)) return false;
      holds.set(key, copy(hold));
      return true;
    },
    async getHold(ref) {
      const hold = holds.get(keyOf(ref));
      return hold && copy(hold);
    },
    async updateHold({ record, expectedVersion }) {
      const key = keyOf(record);
      if (holds.get(key)?.version !== expectedVersion) return { ok: false, reason: 'stale' };
      const written = { ...copy(record), version: expectedVersion + 1 };
      holds.set(key, written);
      leases.delete(key);
      return { ok: true, record: copy(written) };
    },
    async listDueHolds({ now, limit, lease }) {
      const at = now.getTime();
      const due = [...holds.values()]
        .filter((hold) => hold.nextCheckAt !== null && Date.parse(hold.nextCheckAt) <= at)
        .filter((hold) => !lease || (leases.get(keyOf(hold)) ?? 0) <= lease.now.getTime())
        .sort((a, b) => Date.parse(a.nextCheckAt!) - Date.parse(b.nextCheckAt!))
        .slice(0, limit);
      if (lease) for (const hold of due) leases.set(keyOf(hold), lease.until.getTime());
      return due.map(copy);
    },
  };
  return { store, purgeEnded };
}
