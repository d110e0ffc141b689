// Test helper: the most admissions any span of a window ever saw, the number a sliding-window limit bounds.

/** The most of `times` (ms) in any span of `windowMs` (every span that matters starts at one of them). */
export function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; start < sorted.length; start++) {
    while (end < sorted.length && sorted[end]! < sorted[start]! + windowMs) end++;
    most = Math.max(most, end - start);
  }
  return most;
}
