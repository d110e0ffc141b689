// Exact conversion between integer cents and decimal text ("1234.56"), through BigInt, never a float.

const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/** Cents as a plain decimal string with two places: -123456 -> "-1234.56". */
export function centsToDecimal(cents: number): string {
  const big = BigInt(cents);
  const abs = big < 0n ? -big : big;
  const fraction = (abs % 100n).toString().padStart(2, '0');
  return `${big < 0n ? '-' : ''}${abs / 100n}.${fraction}`;
}

/** Integer reais and up to two fraction digits, both as digit text, to cents; null past the safe range. */
export function digitsToCents(negative: boolean, reais: string, fraction: string): number | null {
  const abs = BigInt(reais) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (abs > MAX) return null;
  return Number(negative ? -abs : abs);
}
