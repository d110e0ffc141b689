// Readiness with hysteresis (issue 37 §4): the store's check must fail several times in a row to turn an instance not ready, and pass several times to turn it ready again.

/** How many checks in a row turn readiness (decision RDY-1); `createFinancingService({ readiness })`. */
export interface ReadinessOptions {
  /** Consecutive failed store checks before a ready instance turns not ready: default 3. */
  failuresBeforeNotReady?: number;
  /** Consecutive passed store checks before a not-ready instance turns ready again: default 2. */
  successesBeforeReady?: number;
  /**
   * A store check fails while a request was answered 503 for the store (`store.unavailable`: a lock, a full
   * pool, a deadline) within this many ms, even if the ping answers: default 5000 (RDY-2).
   */
  writeRefusalWindowMs?: number;
}

export type ReadinessThresholds = Required<ReadinessOptions>;

export const defaultReadiness: ReadinessThresholds = Object.freeze({
  failuresBeforeNotReady: 3,
  successesBeforeReady: 2,
  writeRefusalWindowMs: 5_000,
});

/** The thresholds, each a positive integer (a window may be 0: only the ping counts). */
export function resolveReadiness(options: ReadinessOptions | undefined): ReadinessThresholds {
  const resolved = { ...defaultReadiness, ...options };
  for (const [name, value] of Object.entries(resolved)) {
    const least = name === 'writeRefusalWindowMs' ? 0 : 1;
    if (!Number.isSafeInteger(value) || value < least) {
      throw new TypeError(
        `createFinancingService: readiness.${name} must be an integer of at least ${least}`,
      );
    }
  }
  return resolved;
}

/** Where the store's readiness stands: its verdict, and how many checks in a row have disagreed with it. */
export interface StoreReadiness {
  ready: boolean;
  streak: number;
}

/**
 * The verdict after one more check. The first check decides alone (a fresh instance is ready as soon as its
 * store answers, and not ready while it does not); after that, a verdict changes only once
 * `failuresBeforeNotReady` (or `successesBeforeReady`) checks in a row disagreed with it.
 */
export function nextStoreReadiness(
  state: StoreReadiness | undefined,
  passed: boolean,
  thresholds: ReadinessThresholds,
): StoreReadiness {
  if (!state || passed === state.ready) return { ready: passed, streak: 0 };
  const streak = state.streak + 1;
  const needed = state.ready ? thresholds.failuresBeforeNotReady : thresholds.successesBeforeReady;
  return streak >= needed ? { ready: passed, streak: 0 } : { ready: state.ready, streak };
}

/** Whether a request was refused for the store within the window before `now`. */
export const refusedRecently = (lastRefusal: Date | undefined, now: Date, windowMs: number): boolean =>
  lastRefusal !== undefined && now.getTime() - lastRefusal.getTime() < windowMs;
