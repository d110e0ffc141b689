// a credit refusal is not an HTTP error: HTTP 200, `authorized: false` and a `declineReason`.
import type { AuthorizeResult, ProposalReuse } from '@fin/core';

type Declined = Extract<AuthorizeResult, { authorized: false }>;

/** Seller-facing text when the engine gives none: it says what happened and what to do. */
export const R07_DEFAULT_MESSAGE =
  'Crédito não aprovado para este cliente. Ofereça outra forma de pagamento.';

/** The `data` of a refused authorization; the caller answers it with status 200 (never 4xx or 5xx). */
export function r07Decline(declineReason: string, message?: string, proposalReuse?: ProposalReuse): Declined {
  return {
    authorized: false,
    declineReason,
    message: message || R07_DEFAULT_MESSAGE,
    ...(proposalReuse ? { proposalReuse } : {}),
  };
}

/** R-07's status for a refusal. */
export const R07_DECLINE_STATUS = 200;
