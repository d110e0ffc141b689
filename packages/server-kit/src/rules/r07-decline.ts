// a credit refusal is not an HTTP error: HTTP 200, `authorized: false` and a `declineReason`.
import type { ProposalReuse } from '@fin/core';
import type { AuthorizeResult } from '@fin/core/schemas';

type Declined = Extract<AuthorizeResult, { authorized: false }>;

/** seller-facing text when the engine gives none: it says what happened and what to do. */
export const DEFAULT_DECLINE_MESSAGE =
  'Crédito não aprovado para este cliente. Ofereça outra forma de pagamento.';

/** the `data` of a refused authorization; the caller answers it with status 200 (never 4xx or 5xx). */
export function declineResult(
  declineReason: string,
  message?: string,
  proposalReuse?: ProposalReuse,
): Declined {
  return {
    authorized: false,
    declineReason,
    message: message || DEFAULT_DECLINE_MESSAGE,
    ...(proposalReuse ? { proposalReuse } : {}),
  };
}

/** R-07's status for a refusal. */
export const DECLINE_HTTP_STATUS = 200;
