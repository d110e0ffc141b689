// A seeded pseudo-random source (mulberry32): the same seed always yields the same simulated partner.

/** Deterministic integer draws; never `Math.random`, so a data set is reproducible from its seed. */
export interface Random {
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** `length` decimal digits. */
  digits(length: number): string;
  /** True `numerator` times in `denominator`. */
  chance(numerator: number, denominator: number): boolean;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const int = (min: number, max: number) => min + (next() % (max - min + 1));
  return {
    int,
    pick: (items) => items[int(0, items.length - 1)]!,
    digits: (length) => Array.from({ length }, () => String(int(0, 9))).join(''),
    chance: (numerator, denominator) => int(1, denominator) <= numerator,
  };
}
