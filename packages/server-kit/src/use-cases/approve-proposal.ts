// service.proposals.approve: the financing team's own credit flow stores an approved proposal for a CPF and store.
import { FinApiError, schemas } from '@fin/core';
import * as z from 'zod';
import { validate } from '../http/validate.js';
import type { ProposalRecord } from '../ports/records.js';
import { installmentsFor } from '../rules/installment-floor.js';
import { checkSaleCeiling } from '../rules/sale-ceiling.js';
import type { ServiceDeps } from '../service/deps.js';
import { newProposalId } from './ids.js';

export const approveProposalInput = z.object({
  clientTaxId: schemas.cpf,
  storeId: schemas.shortId,
  amount: schemas.financedAmount,
  installments: z.number().int().min(1).max(99).optional(),
});
export type ApproveProposalInput = z.input<typeof approveProposalInput>;

/**
 * Stores an approved proposal (DESIGN 1a): the next authorization of this CPF at this store uses it,
 * with `grandTotal` equal to `amount` to the cent. `installments` is capped to what `amount` can carry at
 * one cent each at least (HP-7). Throws a FinApiError (`validation_error`,
 * `unsupported_currency`, `store_not_found`) for input it cannot accept.
 */
export async function approveProposal(
  deps: ServiceDeps,
  input: ApproveProposalInput,
): Promise<ProposalRecord> {
  const checked = validate(approveProposalInput, input);
  if (!checked.ok) throw new FinApiError({ code: checked.code, details: checked.details });
  const ceiling = checkSaleCeiling(checked.data.amount, deps.settings.maxGrandTotal, 'amount.amount');
  if (!ceiling.ok) throw new FinApiError({ code: ceiling.code, details: ceiling.details });
  if (!deps.clients.ownsStore(checked.data.storeId)) {
    throw new FinApiError({
      code: 'store_not_found',
      details: [{ field: 'storeId', issue: 'no registered client owns this store' }],
    });
  }
  const proposal: ProposalRecord = {
    proposalId: newProposalId(),
    clientTaxId: checked.data.clientTaxId,
    storeId: checked.data.storeId,
    amount: checked.data.amount,
    // Capped so no installment falls under one cent (HP-7): 10 installments of R$ 0,05 become 5 of R$ 0,01.
    installments: installmentsFor(
      checked.data.amount,
      checked.data.installments ?? deps.settings.installments,
    ),
    approvedAt: deps.clock.now().toISOString(),
    source: 'MANUAL',
  };
  await deps.store.insertProposal(proposal);
  return proposal;
}
