// service.proposals.approve: the financing team's own credit flow stores an approved proposal for a CPF and store.
import { FinApiError, schemas } from '@fin/core';
import * as z from 'zod';
import type { ServiceDeps } from '../deps/service-deps.js';
import { linkHold } from '../holds/link-hold.js';
import { validate } from '../http/validate.js';
import type { HoldRecord } from '../ports/hold-record.js';
import { newProposalId } from '../ports/ids.js';
import type { ProposalRecord } from '../ports/records.js';
import { installmentsFor } from '../rules/installment-floor.js';
import { checkSaleCeiling } from '../rules/sale-ceiling.js';

export const approveProposalInput = z.object({
  clientTaxId: schemas.cpf,
  storeId: schemas.shortId,
  amount: schemas.financedAmount,
  installments: z.number().int().min(1).max(99).optional(),
  /** A hold `service.holds.place` made at this store for the cart's device: it now serves this proposal (HOLD-3). */
  hold: z.object({ reservationId: schemas.shortId }).optional(),
});
export type ApproveProposalInput = z.input<typeof approveProposalInput>;

/** The proposal stored, and the hold linked to it when the input named one. */
export type ApprovedProposal = ProposalRecord & { hold?: HoldRecord };

/**
 * Stores an approved proposal (DESIGN 1a): the next authorization of this CPF at this store uses it,
 * with `grandTotal` equal to `amount` to the cent. `installments` is capped to what `amount` can carry at
 * one cent each at least (HP-7). With `hold`, the hold serves it (HOLD-3: `reservation_not_found`,
 * `reservation_not_active` when it cannot). Throws a FinApiError (`validation_error`,
 * `unsupported_currency`, `store_not_found`) for input it cannot accept.
 */
export async function approveProposal(
  deps: ServiceDeps,
  input: ApproveProposalInput,
): Promise<ApprovedProposal> {
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
  // Linked first: a proposal stored without its hold would be authorized with nobody keeping the hold.
  const hold = checked.data.hold
    ? await linkHold(deps, proposal.storeId, checked.data.hold.reservationId, proposal.proposalId)
    : undefined;
  await deps.store.insertProposal(proposal);
  return hold ? { ...proposal, hold } : proposal;
}
