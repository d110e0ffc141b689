// each line is unit price x quantity, the sums equal `grandTotal` exactly, and `grandTotal` the approved amount.
import { type AuthorizeRequest, type ErrorDetail, type Money, money } from '@fin/core';

export type TotalsCheck = { ok: true } | { ok: false; code: 'total_mismatch'; details: ErrorDetail[] };

type Cart = Pick<AuthorizeRequest, 'items' | 'services' | 'totals'>;

/**
 * the cart's own arithmetic, in integer cents with no rounding: each `items[].totalPrice` is its
 * `unitPrice` x `quantity` (decision C-19), `productsTotal` is the sum of `items[].totalPrice`,
 * `servicesTotal` the sum of `services[].price`, and `grandTotal` both together.
 * The service never adjusts a value; each mismatch is named in `details`.
 */
export function checkCartTotals(cart: Cart): TotalsCheck {
  const products = money.sum(cart.items.map((item) => item.totalPrice));
  const services = money.sum((cart.services ?? []).map((service) => service.price));
  const details: ErrorDetail[] = [];
  const expect = (field: string, actual: Money, expected: Money, what: string) => {
    if (!money.equals(actual, expected)) {
      details.push({ field, issue: `must equal ${what} (${expected.amount} cents), got ${actual.amount}` });
    }
  };
  cart.items.forEach((item, index) => {
    const line = money.multiply(item.unitPrice, item.quantity);
    expect(`items.${index}.totalPrice`, item.totalPrice, line, 'unitPrice x quantity');
  });
  expect('totals.productsTotal', cart.totals.productsTotal, products, 'the sum of items[].totalPrice');
  expect('totals.servicesTotal', cart.totals.servicesTotal, services, 'the sum of services[].price');
  expect(
    'totals.grandTotal',
    cart.totals.grandTotal,
    money.add(products, services),
    'the sum of items[].totalPrice and services[].price',
  );
  return details.length === 0 ? { ok: true } : { ok: false, code: 'total_mismatch', details };
}

/** `grandTotal` against the amount approved in the proposal: equal to the cent, or `total_mismatch`. */
export function checkTotalMatchesProposal(grandTotal: Money, approved: Money): TotalsCheck {
  return money.equals(grandTotal, approved)
    ? { ok: true }
    : {
        ok: false,
        code: 'total_mismatch',
        details: [
          { field: 'totals.grandTotal', issue: 'must equal the amount approved in the credit proposal' },
        ],
      };
}
