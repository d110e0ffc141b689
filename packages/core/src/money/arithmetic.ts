// Construction, arithmetic and comparison of Money; every result is checked to stay a safe integer.
import type { Money } from '../schemas/primitives.js';
import { assertCents, assertMoney, checkedCents } from './guard.js';

/** `{ amount: cents, currency: 'BRL' }`; `cents` must be a safe integer. */
export function brl(cents: number): Money {
  assertCents(cents, 'money.brl');
  // `+ 0` turns -0 into 0, so equal amounts serialize alike.
  return { amount: cents + 0, currency: 'BRL' };
}

export function add(a: Money, b: Money): Money {
  assertMoney(a, 'money.add');
  assertMoney(b, 'money.add');
  // Two safe integers add exactly unless the true sum leaves the safe range, which the check catches.
  return checkedCents(a.amount + b.amount, 'money.add');
}

export function subtract(a: Money, b: Money): Money {
  assertMoney(a, 'money.subtract');
  assertMoney(b, 'money.subtract');
  return checkedCents(a.amount - b.amount, 'money.subtract');
}

/** Sum of a list; the empty list sums to zero. */
export function sum(amounts: Iterable<Money>): Money {
  let total: Money = { amount: 0, currency: 'BRL' };
  for (const m of amounts) total = add(total, m);
  return total;
}

/** `m` times an integer quantity (a cart line: unit price x quantity). */
export function multiply(m: Money, quantity: number): Money {
  assertMoney(m, 'money.multiply');
  if (!Number.isSafeInteger(quantity)) {
    throw new TypeError(`money.multiply: quantity must be a safe integer, got ${String(quantity)}`);
  }
  return checkedCents(m.amount * quantity + 0, 'money.multiply');
}

/** -1, 0 or 1, for `Array.prototype.sort`. */
export function compare(a: Money, b: Money): -1 | 0 | 1 {
  assertMoney(a, 'money.compare');
  assertMoney(b, 'money.compare');
  return a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0;
}

export function equals(a: Money, b: Money): boolean {
  return compare(a, b) === 0;
}
