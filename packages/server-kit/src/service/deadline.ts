// The per-request deadline: the answer a request gets when its work outlives `requestDeadlineMs`.

/**
 * `work`'s result, or `late()`'s once `ms` have passed. The work is not stopped (JavaScript cannot), but
 * it cannot leave half-done state either: each store step commits whole, and a write commits with its
 * idempotent answer, so a retry replays what the late work committed or runs it once.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  // One promise settled by whichever comes first: no race of two, no async frame (a request runs this once).
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
