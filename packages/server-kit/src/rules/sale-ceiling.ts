// Decision C-18: this service's ceiling of one financed sale, at most the schemas' own (`MAX_SALE_AMOUNT_CENTS`).
import type { ErrorDetail, Money } from '@fin/core';

export type CeilingResult = { ok: true } | { ok: false; code: 'validation_error'; details: ErrorDetail[] };

/** `amount` (a grandTotal, an approval) against the service's ceiling in cents; over it names `field`. */
export function checkSaleCeiling(amount: Money, ceilingCents: number, field: string): CeilingResult {
  return amount.amount <= ceilingCents
    ? { ok: true }
    : {
        ok: false,
        code: 'validation_error',
        details: [
          { field, issue: `must be at most ${ceilingCents} cents (this service's financing ceiling)` },
        ],
      };
}
