// The Store port's stock holds (issue 30): one record per hold the service made, written by compare-and-set, listed under a worker lease.
import type { HoldRecord } from './hold-record.js';
import type { WorkerLease } from './worker-lease.js';

/** Names one hold: reservation ids are unique per partner only. */
export interface HoldRef {
  partnerId: string;
  reservationId: string;
}

export type UpdateHoldResult =
  | { ok: true; record: HoldRecord }
  /** Not found, or someone else wrote first: read again and decide again. */
  | { ok: false; reason: 'stale' };

/**
 * Optional on `Store` (a store written before issue 30 still serves everything else; `service.holds`
 * then refuses with a TypeError). `memoryStore()` and `postgresStore()` implement it; the conformance
 * suite `describeHoldStoreConformance` is its executable contract.
 */
export interface HoldStore {
  /** Stores a new hold; `false` when (`partnerId`, `reservationId`) is already stored (nothing changed). */
  insertHold(hold: HoldRecord): Promise<boolean>;
  getHold(ref: HoldRef): Promise<HoldRecord | undefined>;
  /**
   * Writes the whole next record with `version` = `expectedVersion + 1`, only if the stored one has
   * `expectedVersion`; a write ends the worker lease on the hold (its next look is `nextCheckAt`'s).
   */
  updateHold(input: { record: HoldRecord; expectedVersion: number }): Promise<UpdateHoldResult>;
  /**
   * Holds whose `nextCheckAt <= now`, earliest first; with `lease`, only those no unexpired lease holds,
   * which it then holds (several workers never look at one hold at once).
   */
  listDueHolds(query: { now: Date; limit: number; lease?: WorkerLease }): Promise<HoldRecord[]>;
}
