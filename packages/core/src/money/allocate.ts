// money.allocate: split an amount into integer parts that add up to it exactly, larger parts first.
import type { Money } from '../schemas/primitives.js';
import { assertMoney } from './guard.js';

/**
 * Splits `m` into `parts` equal shares (a count) or in proportion to integer weights. Each share is
 * rounded down (towards zero) and the cents left over go one each to the first shares of non-zero
 * weight, so the shares always sum to `m`: `allocate(brl(1000), 3)` -> 334, 333, 333.
 * Negative amounts split the same way, mirrored: -1000 -> -334, -333, -333.
 */
export function allocate(m: Money, parts: number | readonly number[]): Money[] {
  assertMoney(m, 'money.allocate');
  const weights = typeof parts === 'number' ? countToWeights(parts) : checkWeights(parts);
  const total = weights.reduce((acc, w) => acc + w, 0n);
  const amount = BigInt(m.amount);
  const sign = amount < 0n ? -1n : 1n;
  const abs = amount * sign;
  // BigInt keeps amount x weight exact even when the product passes 2^53.
  const shares = weights.map((w) => (abs * w) / total);
  let left = abs - shares.reduce((acc, s) => acc + s, 0n);
  for (let i = 0; left > 0n; i++) {
    if (weights[i] === 0n) continue;
    shares[i] = (shares[i] ?? 0n) + 1n;
    left -= 1n;
  }
  return shares.map((s) => ({ amount: Number(s * sign), currency: 'BRL' }));
}

function countToWeights(count: number): bigint[] {
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new RangeError(
      `money.allocate: the number of parts must be a positive integer, got ${String(count)}`,
    );
  }
  return Array.from({ length: count }, () => 1n);
}

function checkWeights(weights: readonly number[]): bigint[] {
  if (!Array.isArray(weights) || weights.length === 0) {
    throw new RangeError('money.allocate: give a positive count or a non-empty array of integer weights');
  }
  const out = weights.map((w) => {
    if (!Number.isSafeInteger(w) || w < 0) {
      throw new RangeError(`money.allocate: weights must be non-negative safe integers, got ${String(w)}`);
    }
    return BigInt(w);
  });
  if (!out.some((w) => w > 0n)) {
    throw new RangeError('money.allocate: at least one weight must be greater than zero');
  }
  return out;
}
