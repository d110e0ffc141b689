// When each proposal is free for a first use again: the index behind memoryStore's findUnusedProposal.

/** A proposal's bucket (CPF and store) and until when its uses hold it (ms; 0 free, Infinity for good). */
interface Availability {
  bucket: string;
  until: number;
}

/**
 * A proposal is used until the last of its live uses ends: for good once one is `CONFIRMED` or
 * `CANCELLED`, at `expiresAt` while its uses are `AUTHORIZED`. Free proposals are kept per CPF and store,
 * and a time-ordered queue moves a proposal back among them when its `AUTHORIZED` use lapses, so a
 * lookup costs the few free proposals of one customer, not every proposal ever approved.
 */
export function proposalAvailability() {
  /** One entry per proposal, so each write looks a proposal up once. */
  const states = new Map<string, Availability>();
  const free = new Map<string, Set<string>>();
  /** [until, proposalId], ascending; `head` is the first entry not yet drained. */
  const queue: [number, string][] = [];
  let head = 0;

  const freeSet = (bucket: string) => {
    let set = free.get(bucket);
    if (!set) {
      set = new Set();
      free.set(bucket, set);
    }
    return set;
  };

  const enqueue = (until: number, proposalId: string) => {
    // Uses end 15 minutes after they are written, so a new entry nearly always goes last.
    if (head === queue.length || queue[queue.length - 1]![0] <= until) {
      queue.push([until, proposalId]);
      return;
    }
    let low = head;
    let high = queue.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (queue[mid]![0] <= until) low = mid + 1;
      else high = mid;
    }
    queue.splice(low, 0, [until, proposalId]);
  };

  const drain = (now: number) => {
    while (head < queue.length && queue[head]![0] <= now) {
      const [until, proposalId] = queue[head]!;
      head += 1;
      // An entry a later write superseded is skipped: that write queued its own.
      const state = states.get(proposalId);
      if (state?.until === until) freeSet(state.bucket).add(proposalId);
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
  };

  return {
    /** A new proposal of `bucket`, free from the start. */
    add(proposalId: string, bucket: string) {
      states.set(proposalId, { bucket, until: 0 });
      freeSet(bucket).add(proposalId);
    },
    /** Its uses changed: used until `until` (ms; 0 free now, Infinity for good). */
    usedUntil(proposalId: string, until: number, now: number) {
      const state = states.get(proposalId);
      if (state === undefined || state.until === until) return;
      state.until = until;
      if (until <= now) {
        freeSet(state.bucket).add(proposalId);
        return;
      }
      free.get(state.bucket)?.delete(proposalId);
      if (until !== Number.POSITIVE_INFINITY) enqueue(until, proposalId);
    },
    /** Forgets a proposal the purge removed (its queued entries are skipped as superseded). */
    remove(proposalId: string) {
      const state = states.get(proposalId);
      if (!state) return;
      states.delete(proposalId);
      free.get(state.bucket)?.delete(proposalId);
    },
    /** The proposals of `bucket` free at `now`. */
    freeAt(bucket: string, now: number): string[] {
      drain(now);
      const ids: string[] = [];
      for (const id of free.get(bucket) ?? []) if ((states.get(id)?.until ?? 0) <= now) ids.push(id);
      return ids;
    },
  };
}
