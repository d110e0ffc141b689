// The work a service has in progress (requests, worker runs), so close() can wait for it within a deadline.

export interface InFlight {
  /** Counts `work` until it settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T>;
  readonly size: number;
  /** Resolves `true` once nothing is in progress, or `false` when `ms` pass first. */
  drain(ms: number): Promise<boolean>;
}

export function createInFlight(): InFlight {
  const running = new Set<Promise<void>>();
  return {
    track(work) {
      // Forgotten as it settles (one reaction, not a second promise chained to the first).
      const forget = () => {
        running.delete(settled);
      };
      const settled: Promise<void> = work.then(forget, forget);
      running.add(settled);
      return work;
    },
    get size() {
      return running.size;
    },
    async drain(ms) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      });
      try {
        // Work tracked while draining (a request refused at once) is waited for too.
        while (running.size > 0) {
          const done = await Promise.race([Promise.all(running).then(() => true), late]);
          if (!done) return false;
        }
        return true;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
