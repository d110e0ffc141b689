// Steps 10 and 11: the sales that must not be invoiced, a credit refusal and a cart that changed.
import { buildCart } from '@fin/authorization-client';
import { money } from '@fin/core';
import { checkout } from '@fin/example-pos-checkout';
import type { SellerSession } from '@fin/pos-client';
import { mustNotInvoice, orderFor } from './cart.js';
import { customers } from './cast.js';
import { who } from './format.js';
import { outcomeOf } from './outcome.js';
import type { Stage } from './scene.js';
import type { StepContext } from './timeline.js';

export async function declined(step: StepContext, stage: Stage, session: SellerSession): Promise<void> {
  const phone = stage.cast.phones.declined;
  const result = await checkout(stage.fin, orderFor(session, customers.declined, phone), mustNotInvoice);
  if (result.outcome !== 'declined') throw new Error(`expected a decline, got ${outcomeOf(result)}`);
  step.report(
    [
      `${who(customers.declined)}, ${phone.entry.product.name}`,
      `→ authorized: false, ${result.declineReason} (HTTP 200, R-07)`,
      `seller reads: "${result.message}"`,
      'the POS does not invoice',
    ],
    { declineReason: result.declineReason },
  );
}

/** A proposal approved for the phone alone; then the seller adds a case, and the POS sends the new total. */
export async function totalMismatch(step: StepContext, stage: Stage, session: SellerSession): Promise<void> {
  const phone = stage.cast.phones.cartChanged;
  const approved = phone.entry.product.price;
  await stage.financing.service.proposals.approve({
    clientTaxId: customers.cartChanged.taxId,
    storeId: session.storeId,
    amount: approved,
  });
  const order = orderFor(session, customers.cartChanged, phone, { accessories: [stage.cast.accessory] });
  const total = buildCart(order).totals.grandTotal;
  const result = await checkout(stage.fin, order, mustNotInvoice);
  if (result.outcome !== 'refused' || result.code !== 'total_mismatch') {
    throw new Error(`expected total_mismatch, got ${outcomeOf(result)}`);
  }
  step.report(
    [
      `${who(customers.cartChanged)}: proposal ${money.format(approved)}, phone only`,
      `the cart adds ${stage.cast.accessory.product.name}: ${money.format(total)}`,
      `→ ${result.code} (HTTP ${result.status}, ${result.legacyCode}): values never adjusted (R-02)`,
      'the POS rebuilds the cart and asks again; nothing invoiced',
    ],
    {
      code: result.code,
      approved: money.format(approved),
      grandTotal: money.format(total),
      action: result.action,
    },
  );
}
