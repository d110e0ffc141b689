// The per-request deadline: the answer a request gets when its work outlives `requestDeadlineMs`.

/**
 * `work`'s result, or `late()`'s once `ms` have passed. The work is not stopped (JavaScript cannot), but
 * it cannot leave half-done state either: each store step commits whole, and a write commits with its
 * idempotent answer, so a retry replays what the late work committed or runs it once.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
