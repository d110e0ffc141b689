// Waiters on a stream of values: the next value a predicate accepts, or a rejection naming it after a timeout.

export interface Waiters<T> {
  /** Hands `value` to every waiter it matches (each is served once). */
  notify(value: T): void;
  /** The next value for which `matches` holds; rejects with "no <what> within <timeoutMs> ms". */
  next(what: string, matches: (value: T) => boolean, timeoutMs: number): Promise<T>;
}

export function waiters<T>(): Waiters<T> {
  const waiting = new Set<{ matches: (value: T) => boolean; resolve: (value: T) => void }>();
  return {
    notify(value) {
      for (const waiter of waiting) {
        if (waiter.matches(value)) {
          waiting.delete(waiter);
          waiter.resolve(value);
        }
      }
    },
    next(what, matches, timeoutMs) {
      return new Promise((resolve, reject) => {
        const waiter = {
          matches,
          resolve: (value: T) => {
            clearTimeout(timer);
            resolve(value);
          },
        };
        const timer = setTimeout(() => {
          waiting.delete(waiter);
          reject(new Error(`no ${what} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.add(waiter);
      });
    },
  };
}
