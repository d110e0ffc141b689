// an exchange reuses the original proposal only when all five conditions hold, each failure with its own code.
import type { Money } from '@fin/core';
import type { AuthorizationRecord, ProposalRecord } from '../ports/records.js';
import { calendarDaysBetween } from './calendar.js';
import { effectiveStatus } from './r06-expiry.js';

/** Configurable without a contract change (spec R-11): `rules.r11` of `createFinancingService`. */
export interface ProposalReusePolicy {
  /** Calendar days after the original approval during which the proposal may be reused (7). */
  windowDays: number;
  /** The new `grandTotal` may reach this percentage of the approved amount (100: at most the amount). */
  ceiling: number;
  /** How many times one proposal may be reused (1). */
  limit: number;
  /** Whose calendar counts the days (America/Sao_Paulo). */
  timeZone: string;
}

export const defaultProposalReusePolicy: ProposalReusePolicy = {
  windowDays: 7,
  ceiling: 100,
  limit: 1,
  timeZone: 'America/Sao_Paulo',
};

export type ProposalReuseFailureCode =
  | 'proposal_not_found'
  | 'proposal_already_used'
  | 'proposal_reuse_window_expired'
  | 'proposal_reuse_amount_exceeded'
  | 'proposal_reuse_limit_reached';

export type ProposalReuseCheck =
  | { ok: true; proposalUse: number }
  | { ok: false; code: ProposalReuseFailureCode };

export interface ProposalReuseInput {
  /** The newest authorization of this client, CPF and store carrying an `EXCHANGE` notice, if any. */
  previous: AuthorizationRecord | undefined;
  /** Its proposal. */
  proposal: ProposalRecord | undefined;
  /** Every authorization that used that proposal (`Store#listProposalUses`). */
  uses: readonly AuthorizationRecord[];
  grandTotal: Money;
  now: Date;
}

/**
 * checks the five conditions in the spec's order:
 * 1. same CPF and store (a previous authorization there) - `proposal_not_found`;
 * 2. that authorization is `CANCELLED` with reason `EXCHANGE`, verified, and still the proposal's
 *    latest live use - `proposal_already_used`;
 * 3. within `windowDays` calendar days of the approval - `proposal_reuse_window_expired`;
 * 4. `grandTotal` at most `ceiling`% of the approved amount - `proposal_reuse_amount_exceeded`;
 * 5. fewer than `limit` reuses so far - `proposal_reuse_limit_reached`.
 * On success, `proposalUse` is the slot the new authorization takes (the Store holds it uniquely).
 */
export function checkProposalReuse(
  input: ProposalReuseInput,
  policy: ProposalReusePolicy = defaultProposalReusePolicy,
): ProposalReuseCheck {
  const { previous, proposal, uses, grandTotal, now } = input;
  if (!previous || !proposal || proposal.proposalId !== previous.proposalId) {
    return { ok: false, code: 'proposal_not_found' };
  }
  const live = uses.filter((use) => effectiveStatus(use, now) !== 'EXPIRED');
  const holder = live.reduce<AuthorizationRecord | undefined>(
    (latest, use) => (!latest || use.proposalUse > latest.proposalUse ? use : latest),
    undefined,
  );
  const exchanged =
    previous.status === 'CANCELLED' &&
    previous.cancellation?.reason === 'EXCHANGE' &&
    previous.cancellation.verification === 'VERIFIED';
  if (!exchanged || holder?.authorizationId !== previous.authorizationId) {
    return { ok: false, code: 'proposal_already_used' };
  }
  if (calendarDaysBetween(new Date(proposal.approvedAt), now, policy.timeZone) > policy.windowDays) {
    return { ok: false, code: 'proposal_reuse_window_expired' };
  }
  // grandTotal <= approved x ceiling / 100, in integers: no float near an amount.
  if (BigInt(grandTotal.amount) * 100n > BigInt(proposal.amount.amount) * BigInt(policy.ceiling)) {
    return { ok: false, code: 'proposal_reuse_amount_exceeded' };
  }
  const proposalUse = previous.proposalUse + 1;
  if (proposalUse > policy.limit) return { ok: false, code: 'proposal_reuse_limit_reached' };
  return { ok: true, proposalUse };
}

/**
 * the newest `EXCHANGE` notice at this store among a CPF's notices (condition 1 looks no further);
 * of two issued in the same millisecond, the later use of the proposal.
 */
export function selectExchangeToReuse(
  notices: readonly AuthorizationRecord[],
  storeId: string,
): AuthorizationRecord | undefined {
  const newer = (a: AuthorizationRecord, b: AuthorizationRecord) =>
    a.issuedAt > b.issuedAt || (a.issuedAt === b.issuedAt && a.proposalUse > b.proposalUse);
  return notices
    .filter((notice) => notice.storeId === storeId)
    .reduce<AuthorizationRecord | undefined>(
      (newest, notice) => (!newest || newer(notice, newest) ? notice : newest),
      undefined,
    );
}
