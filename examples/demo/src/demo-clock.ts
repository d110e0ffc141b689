// The demo's clock: real time, plus the minutes the demo skips so a worker's wait passes without sleeping.

export interface DemoClock {
  now(): Date;
  /** Moves every reader of this clock (partner POS, financing service, its workers) `ms` ahead. */
  advance(ms: number): void;
}

export function demoClock(): DemoClock {
  let skippedMs = 0;
  return {
    now: () => new Date(Date.now() + skippedMs),
    advance(ms) {
      skippedMs += ms;
    },
  };
}
