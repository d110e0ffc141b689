// POST /v1/sales/authorize, the proposal lookup order of DESIGN 1 (R-11 reuse, CreditEngine), R-06, R-07.
import { catalogEntry, type Money, money, type ProposalReuse, type schemas } from '@fin/core';
import type { z } from 'zod';
import { readPartnerCatalog } from '../catalog/partner-catalog.js';
import type { RegisteredClient } from '../deps/clients.js';
import type { ServiceDeps } from '../deps/service-deps.js';
import { newAuthorizationId, newProposalId } from '../ports/ids.js';
import type { AuthorizationRecord, ProposalRecord } from '../ports/records.js';
import { isProposalOffered } from '../ports/retention.js';
import type { AuthorizeFindings } from '../ports/store.js';
import { installmentsFit, installmentsFor } from '../rules/installment-floor.js';
import { checkCartTotals, checkTotalMatchesProposal } from '../rules/r02-totals.js';
import { authorizationExpiresAt } from '../rules/r06-expiry.js';
import { declineResult } from '../rules/r07-decline.js';
import { checkImeiNotFinanced } from '../rules/r10-imei.js';
import { checkProposalReuse, selectExchangeToReuse } from '../rules/r11-reuse.js';
import { checkSaleCeiling } from '../rules/sale-ceiling.js';
import { claimLost, done, refused, type UseCaseResult, type Write } from './result.js';

export type Cart = z.output<typeof schemas.authorizeRequest>;

export interface AuthorizeInput {
  client: RegisteredClient;
  cart: Cart;
  correlationId: string | undefined;
  now: Date;
  /** The request's key: the first reads, made by the store with its claim, and the commit of the answer. */
  write: Write<AuthorizeFindings>;
}

export const AUTHORIZED_MESSAGE = 'Venda autorizada. Fature em até 15 minutos.';

/** How this sale is financed, or why not. */
type Plan =
  | {
      kind: 'use';
      proposal: ProposalRecord;
      proposalUse: number;
      isNew: boolean;
      proposalReuse?: ProposalReuse;
    }
  | { kind: 'declined'; declineReason: string; message?: string; proposalReuse?: ProposalReuse }
  | { kind: 'refused'; result: UseCaseResult };

/** A proposal a concurrent request took between our reading and our writing: decide again, a few times. */
const MAX_DECISIONS = 3;

/** Spec 1.3: a store the partner's latest catalog sync lists is the partner's too, registered or not. */
async function isSyncedStore(deps: ServiceDeps, partnerId: string, storeId: string): Promise<boolean> {
  const synced = await readPartnerCatalog(deps.store, partnerId);
  return synced?.catalog.stores.some((store) => store.storeId === storeId) ?? false;
}

export async function authorizeSale(deps: ServiceDeps, input: AuthorizeInput): Promise<UseCaseResult> {
  const { cart, client, now } = input;
  if (!client.storeIds.has(cart.storeId) && !(await isSyncedStore(deps, client.clientId, cart.storeId))) {
    return refused('store_not_found', [{ field: 'storeId', issue: 'is not a store of this partner' }]);
  }
  const ceiling = checkSaleCeiling(
    cart.totals.grandTotal,
    deps.settings.maxGrandTotal,
    'totals.grandTotal.amount',
  );
  if (!ceiling.ok) return refused(ceiling.code, ceiling.details);
  const totals = checkCartTotals(cart);
  if (!totals.ok) return refused(totals.code, totals.details);
  // A read first, so no credit analysis is spent on a financed device; the store holds R-10 on write.
  const r10 = checkImeiNotFinanced(input.write.found.activeByImei, now);
  if (!r10.ok) return imeiFinanced();

  for (let decision = 0; decision < MAX_DECISIONS; decision++) {
    // A decision taken again (a proposal taken meanwhile) reads afresh.
    const plan = await planFinancing(deps, input, decision === 0 ? input.write.found : undefined);
    if (plan.kind === 'refused') return plan.result;
    if (plan.kind === 'declined') {
      const declined = declineResult(plan.declineReason, plan.message, plan.proposalReuse);
      return done(declined, declined.message);
    }
    const authorization = newAuthorization(input, plan.proposal, plan.proposalUse);
    const result = done(
      {
        authorized: true,
        authorizationId: authorization.authorizationId,
        status: authorization.status,
        expiresAt: authorization.expiresAt,
        message: AUTHORIZED_MESSAGE,
        ...(plan.proposalReuse ? { proposalReuse: plan.proposalReuse } : {}),
      },
      AUTHORIZED_MESSAGE,
    );
    const created = await input.write.commit(result, (answer) =>
      deps.store.createAuthorization({
        authorization,
        newProposal: plan.isNew ? plan.proposal : undefined,
        answer,
        now,
      }),
    );
    if (created.ok) return result;
    if (created.reason === 'claim_lost') return claimLost();
    if (created.reason === 'imei_already_financed') return imeiFinanced();
  }
  return refused('service_unavailable');
}

const imeiFinanced = () =>
  refused('imei_already_financed', [{ field: 'imei', issue: 'is linked to an active financing (R-10)' }]);

/** DESIGN 1: (a) an unused proposal, (b) an exchange under R-11, (c) a new credit analysis. */
async function planFinancing(
  deps: ServiceDeps,
  input: AuthorizeInput,
  found: AuthorizeFindings | undefined,
): Promise<Plan> {
  const { cart, client, now } = input;
  const grandTotal = cart.totals.grandTotal;
  const newest = found
    ? found.unusedProposal
    : await deps.store.findUnusedProposal({ clientTaxId: cart.clientTaxId, storeId: cart.storeId, now });
  // An unused proposal expires `retention.unusedProposalsMs` after approval (decision LC-3): the purge may take it.
  const unused =
    newest && isProposalOffered(newest.approvedAt, now, deps.settings.retention) ? newest : undefined;
  // An engine approval freed by an expired authorization serves a retry of that cart only; another
  // amount is a new intention and gets a new analysis. The team's own approvals hold R-02 strictly.
  if (unused && (unused.source === 'MANUAL' || money.equals(unused.amount, grandTotal))) {
    const r02 = checkTotalMatchesProposal(grandTotal, unused.amount);
    if (!r02.ok) return { kind: 'refused', result: refused(r02.code, r02.details) };
    return { kind: 'use', proposal: unused, proposalUse: 0, isNew: false };
  }

  let proposalReuse: ProposalReuse | undefined;
  const notices = found
    ? found.exchangeNotices
    : await deps.store.findExchangeNotices({ clientId: client.clientId, clientTaxId: cart.clientTaxId });
  if (notices.length > 0) {
    const previous = selectExchangeToReuse(notices, cart.storeId);
    const proposal = previous && (await deps.store.getProposal(previous.proposalId));
    const uses = proposal ? await deps.store.listProposalUses(proposal.proposalId) : [];
    const r11 = checkProposalReuse({ previous, proposal, uses, grandTotal, now }, deps.settings.r11);
    // A reuse whose smaller total cannot carry the proposal's installments is not taken: a new analysis caps them (HP-7).
    if (r11.ok && proposal && installmentsFit(grandTotal, proposal.installments)) {
      return {
        kind: 'use',
        proposal,
        proposalUse: r11.proposalUse,
        isNew: false,
        proposalReuse: { reused: true },
      };
    }
    if (!r11.ok) {
      proposalReuse = { reused: false, failure: r11.code, message: catalogEntry(r11.code)?.message };
    }
  }
  return analyze(deps, input, grandTotal, proposalReuse);
}

async function analyze(
  deps: ServiceDeps,
  input: AuthorizeInput,
  grandTotal: Money,
  proposalReuse: ProposalReuse | undefined,
): Promise<Plan> {
  const { cart, now } = input;
  let decision: Awaited<ReturnType<ServiceDeps['credit']['analyze']>>;
  try {
    decision = await deps.credit.analyze({
      clientTaxId: cart.clientTaxId,
      clientName: cart.clientName,
      storeId: cart.storeId,
      planId: cart.planId,
      amount: grandTotal,
      clientId: input.client.clientId,
      correlationId: input.correlationId,
    });
  } catch {
    return { kind: 'refused', result: refused('service_unavailable') };
  }
  if (!decision.approved) {
    return {
      kind: 'declined',
      declineReason: decision.declineReason,
      message: decision.message,
      proposalReuse,
    };
  }
  const r02 = checkTotalMatchesProposal(grandTotal, decision.amount);
  if (!r02.ok) return { kind: 'refused', result: refused(r02.code, r02.details) };
  const proposal: ProposalRecord = {
    proposalId: newProposalId(),
    clientTaxId: cart.clientTaxId,
    storeId: cart.storeId,
    amount: decision.amount,
    installments: installmentsFor(decision.amount, decision.installments),
    approvedAt: now.toISOString(),
    source: 'CREDIT_ENGINE',
  };
  return { kind: 'use', proposal, proposalUse: 0, isNew: true, proposalReuse };
}

function newAuthorization(
  input: AuthorizeInput,
  proposal: ProposalRecord,
  proposalUse: number,
): AuthorizationRecord {
  const { cart, now } = input;
  const issuedAt = now.toISOString();
  return {
    authorizationId: newAuthorizationId(),
    clientId: input.client.clientId,
    status: 'AUTHORIZED',
    version: 1,
    issuedAt,
    expiresAt: authorizationExpiresAt(now).toISOString(),
    updatedAt: issuedAt,
    ...(input.correlationId ? { correlationId: input.correlationId } : {}),
    clientTaxId: cart.clientTaxId,
    storeId: cart.storeId,
    imei: cart.imei,
    grandTotal: cart.totals.grandTotal,
    cart,
    proposalId: proposal.proposalId,
    proposalUse,
    confirmation: null,
    confirmedAt: null,
    contract: null,
    cancellation: null,
  };
}
