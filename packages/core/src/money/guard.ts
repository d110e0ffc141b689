// Runtime guards shared by every money function: integer cents within the safe range, currency BRL.
import { FinInputError } from '../errors/fin-input-error.js';
import type { Money } from '../schemas/primitives.js';

/** Throws unless `value` is an integer number of cents that a double holds exactly. */
export function assertCents(value: unknown, where: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${where}: amount must be an integer number of cents, got ${String(value)}`);
  }
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${where}: ${value} cents is beyond Number.MAX_SAFE_INTEGER`);
  }
}

/** Throws unless `value` is `{ amount: <safe integer cents>, currency: 'BRL' }`. */
export function assertMoney(value: unknown, where: string): asserts value is Money {
  if (typeof value !== 'object' || value === null) {
    throw new TypeError(`${where}: expected { amount, currency: 'BRL' }, got ${String(value)}`);
  }
  const { amount, currency } = value as { amount?: unknown; currency?: unknown };
  if (currency !== 'BRL') {
    throw new FinInputError({
      code: 'unsupported_currency',
      details: [{ field: 'currency', issue: String(currency) }],
    });
  }
  assertCents(amount, where);
}

/** A result of arithmetic: still an integer, and still exact. */
export function checkedCents(value: number, where: string): Money {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${where}: the result (${value}) is beyond Number.MAX_SAFE_INTEGER cents`);
  }
  return { amount: value, currency: 'BRL' };
}
