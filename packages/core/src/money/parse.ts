// money.parse: decimal text in Brazilian ("1.234,56", "R$ 1.234,56") or plain ("1234.56") form to integer cents.
import type { Money } from '../schemas/primitives.js';
import { digitsToCents } from './decimal.js';

// Sign, optional "R$" (any spaces, NBSP included), then the number. One leading minus at most.
const SHAPE = /^(-?)\s*(?:R\$\s*)?(-?)(.*)$/s;
// With a comma, the comma is the decimal mark and dots can only group thousands.
const BRAZILIAN = /^(\d{1,3}(?:\.\d{3})+|\d+),(\d+)$/;
// Without a comma, a single dot (if any) is the decimal mark: "1.234" reads as three decimals, an error.
const PLAIN = /^(\d+)(?:\.(\d+))?$/;

/**
 * Reads `1234.56`, `1.234,56`, `R$ 1.234,56`, `0,5` (50 cents), `1234`, `-10,00`, `-R$ 10,00`.
 * Digits are read as text, so no float ever holds the amount. More than two decimals, thousands
 * separators in the wrong places or anything else is a TypeError; past Number.MAX_SAFE_INTEGER cents
 * a RangeError.
 */
export function parse(text: string): Money {
  if (typeof text !== 'string') {
    throw new TypeError(`money.parse: expected a string, got ${typeof text}`);
  }
  const [, before = '', after = '', number = ''] = SHAPE.exec(text.trim()) ?? [];
  const match = BRAZILIAN.exec(number) ?? PLAIN.exec(number);
  const reais = match?.[1];
  const fraction = match?.[2] ?? '';
  if (reais === undefined || (before && after)) {
    throw new TypeError(`money.parse: ${JSON.stringify(text)} is not an amount in reais`);
  }
  if (fraction.length > 2) {
    throw new TypeError(`money.parse: ${JSON.stringify(text)} has more than two decimals`);
  }
  const cents = digitsToCents(before !== '' || after !== '', reais.replaceAll('.', ''), fraction);
  if (cents === null) {
    throw new RangeError(`money.parse: ${JSON.stringify(text)} is beyond Number.MAX_SAFE_INTEGER cents`);
  }
  return { amount: cents, currency: 'BRL' };
}
