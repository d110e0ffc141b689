// POST /v1/sales/{id}/confirm: AUTHORIZED -> CONFIRMED, creating the credit contract exactly once.
import type { ConfirmRequest } from '@fin/core';
import type { ServiceDeps } from '../deps/service-deps.js';
import { newContractId } from '../ports/ids.js';
import type { AuthorizationRecord } from '../ports/records.js';
import { buildContract } from '../rules/contract.js';
import { checkConfirmTransition } from '../rules/transitions.js';
import { contractCreated } from '../webhooks/event-drafts.js';
import { loadOwned } from './load-owned.js';
import { claimLost, commitWith, done, refused, type UseCaseResult, type Write } from './result.js';

export const CONFIRMED_MESSAGE = 'Venda confirmada. Contrato de crédito criado.';

/** Writers that lost a compare-and-set read again; this many tries is plenty. */
const MAX_WRITES = 3;

const notFound = () =>
  refused('authorization_not_found', [{ field: 'id', issue: 'no authorization with this id' }]);

export function confirmData(record: AuthorizationRecord) {
  return {
    authorizationId: record.authorizationId,
    status: 'CONFIRMED' as const,
    contractId: record.contract!.contractId,
    principal: record.contract!.principal,
    installments: record.contract!.installments,
  };
}

/**
 * Confirms `record` with the invoice data (the API's confirm, and the confirmation poller when the POS
 * never calls it): checks the transition, builds the contract, stores both in one compare-and-set.
 */
export async function confirmAuthorization(
  deps: ServiceDeps,
  authorizationId: string,
  confirmation: ConfirmRequest,
  now: Date,
  clientId?: string,
  write?: Write<unknown>,
): Promise<UseCaseResult> {
  for (let attempt = 0; attempt < MAX_WRITES; attempt++) {
    const record = clientId
      ? await loadOwned(deps, clientId, authorizationId)
      : await deps.store.getAuthorization(authorizationId);
    if (!record) return notFound();
    const transition = checkConfirmTransition(record, confirmation, now, {
      clockSkewMs: deps.settings.clockSkewMs,
      confirmationGraceMs: deps.settings.limits.confirmationGraceMs,
    });
    if (!transition.ok) return refused(transition.code, transition.details);
    if (transition.already) return done(confirmData(record), CONFIRMED_MESSAGE);
    const proposal = await deps.store.getProposal(record.proposalId);
    const contract = buildContract({
      contractId: newContractId(),
      principal: record.grandTotal,
      installments: proposal?.installments ?? deps.settings.installments,
      invoicedAt: new Date(confirmation.invoicedAt),
      createdAt: now,
      timeZone: deps.settings.r11.timeZone,
    });
    const next: AuthorizationRecord = {
      ...record,
      status: 'CONFIRMED',
      confirmation,
      confirmedAt: now.toISOString(),
      contract,
      updatedAt: now.toISOString(),
    };
    const result = done(confirmData(next), CONFIRMED_MESSAGE);
    const written = await commitWith(write, result, (answer) =>
      deps.store.updateAuthorization({
        record: next,
        expectedVersion: record.version,
        answer,
        now,
        // The POS's confirm names its client; the poller's, from the sale search, does not.
        events: [contractCreated(next, clientId ? 'CONFIRM' : 'SALE_SEARCH', now)],
      }),
    );
    if (written.ok) return result;
    if (written.reason === 'claim_lost') return claimLost();
    if (written.reason === 'imei_already_financed') {
      return refused('imei_already_financed', [
        { field: 'imei', issue: 'was financed again after this authorization expired' },
      ]);
    }
    if (written.reason === 'proposal_use_taken') {
      return refused('authorization_expired', [
        { field: 'id', issue: 'its proposal was used again after it expired' },
      ]);
    }
  }
  return refused('service_unavailable');
}

export function confirmSale(
  deps: ServiceDeps,
  input: {
    clientId: string;
    authorizationId: string;
    confirmation: ConfirmRequest;
    now: Date;
    write: Write<undefined>;
  },
): Promise<UseCaseResult> {
  const { authorizationId, confirmation, now, clientId, write } = input;
  return confirmAuthorization(deps, authorizationId, confirmation, now, clientId, write);
}
