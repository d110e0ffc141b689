// Steps 12 and 13, R-08 at work: an exchange verified by the cancellation verifier, and a notice the sale search contradicts.
import { money } from '@fin/core';
import { checkout } from '@fin/example-pos-checkout';
import type { SellerSession } from '@fin/pos-client';
import type { VerificationSummary } from '@fin/server-kit';
import { invoiceAtPartner, orderFor } from './cart.js';
import { customers } from './cast.js';
import { phoneName, who } from './format.js';
import { outcomeOf } from './outcome.js';
import type { FinancedSale } from './sale-steps.js';
import type { Stage } from './scene.js';
import type { StepContext } from './timeline.js';

const MINUTE = 60_000;

export async function exchange(
  step: StepContext,
  stage: Stage,
  session: SellerSession,
  first: FinancedSale,
): Promise<void> {
  const { sim } = stage.partner;
  // R-08 (1, 2): the seller cancels in the POS: order, invoice, stock. Then (3) the POS notifies.
  sim.sales.setStatus({ saleNumber: first.sale.saleNumber }, 'CANCELLED');
  // The partner's sale search is down for a moment, so (4) cannot happen while the notice is answered.
  sim.faults.serverErrors({ endpoint: 'POST /v1/sales/search', count: Number.POSITIVE_INFINITY });
  const notice = await stage.fin
    .journey(first.correlationId)
    .cancel(first.authorization.authorizationId, { reason: 'EXCHANGE' })
    .finally(() => sim.faults.clear());
  if (notice.verification !== 'PENDING')
    throw new Error(`expected a pending notice, got ${notice.verification}`);

  // (4, 5): the verifier searches again a minute later; the demo moves the clock instead of waiting. A
  // verifier run may have started while the notice was being recorded: let it end first, so the minute
  // counts from its search as well.
  await stage.workers.settled('cancellation-verifier', 10_000);
  const verified = stage.workers.next(
    'cancellation verified by the verifier',
    (run) => run.worker === 'cancellation-verifier' && (run.result as VerificationSummary).verified > 0,
    10_000,
  );
  stage.clock.advance(MINUTE + 1_000);
  await verified;

  // a new phone for the same customer at the same store reuses the approved proposal.
  const phone = stage.cast.phones.exchange;
  const order = orderFor(session, customers.buyer, phone);
  const result = await checkout(stage.fin, order, invoiceAtPartner(stage, customers.buyer, phone));
  if (result.outcome !== 'financed')
    throw new Error(`expected the new phone financed, got ${outcomeOf(result)}`);
  if (!result.authorization.proposalReuse?.reused)
    throw new Error('the new phone was financed without reusing the proposal');
  const { contract } = result;
  step.report(
    [
      `POS cancels sale ${first.sale.saleNumber} and its invoice, notifies EXCHANGE`,
      `notice recorded, verification ${notice.verification} (sale search down: 503)`,
      'clock +1 min → verifier: sale CANCELLED → financing cancelled',
      `new phone for ${who(customers.buyer)}:`,
      `${phoneName(phone)}, ${money.format(contract.principal ?? order.items[0]!.unitPrice)}`,
      '→ proposal reused, no new credit analysis (R-09, R-11)',
      `contract ${contract.contractId}, ${contract.installments.length} installments`,
    ],
    {
      cancelledAuthorizationId: first.authorization.authorizationId,
      firstVerification: notice.verification,
      proposalReused: true,
      contractId: contract.contractId,
    },
  );
}

/** The POS notifies a cancellation it never carried out: its sale search still shows the sale ACTIVE. */
export async function contradicted(step: StepContext, stage: Stage, session: SellerSession): Promise<void> {
  const phone = stage.cast.phones.regretful;
  let saleNumber = '';
  const result = await checkout(
    stage.fin,
    orderFor(session, customers.regretful, phone),
    invoiceAtPartner(stage, customers.regretful, phone, (sale) => {
      saleNumber = sale.saleNumber;
    }),
  );
  if (result.outcome !== 'financed') throw new Error(`expected a financed sale, got ${outcomeOf(result)}`);
  const notice = await stage.fin
    .journey(result.correlationId)
    .cancel(result.authorization.authorizationId, { reason: 'CUSTOMER_REQUEST' });
  if (notice.verification !== 'CONTRADICTED' || notice.financingCancelled) {
    throw new Error(`expected the search to contradict the notice, got ${notice.verification}`);
  }
  step.report(
    [
      `${who(customers.regretful)} financed by the credit engine`,
      `contract ${result.contract.contractId}`,
      `POS notifies CUSTOMER_REQUEST, but sale ${saleNumber} is still ACTIVE`,
      `sale search prevails → notice ${notice.verification}, financing stays (R-08)`,
    ],
    {
      verification: notice.verification,
      financingCancelled: notice.financingCancelled,
      status: notice.status,
    },
  );
}
