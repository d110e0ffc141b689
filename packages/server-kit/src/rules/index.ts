// `@fin/server-kit/rules`: the business rules as pure functions with an injected clock, for teams that check a sale themselves.
export { buildContract, type ContractInput } from './contract.js';
export { checkCartTotals, checkTotalMatchesProposal, type TotalsCheck } from './r02-totals.js';
export {
  AUTHORIZATION_VALIDITY_MS,
  authorizationExpiresAt,
  effectiveStatus,
  isAuthorizationExpired,
} from './r06-expiry.js';
export {
  checkCancelledAt,
  checkConfirmTime,
  DEFAULT_CLOCK_SKEW_MS,
  defaultTimeWindowPolicy,
  type TimeWindowPolicy,
} from './r06-time-window.js';
export { DECLINE_HTTP_STATUS, DEFAULT_DECLINE_MESSAGE, declineResult } from './r07-decline.js';
export { checkCancellationBySaleSearch, type SaleSearchVerdict } from './r08-cancellation.js';
export { checkImeiNotFinanced, holdsImei, IMEI_HOLDING_STATUSES } from './r10-imei.js';
export {
  checkProposalReuse,
  defaultProposalReusePolicy,
  type ProposalReuseCheck,
  type ProposalReuseFailureCode,
  type ProposalReuseInput,
  type ProposalReusePolicy,
  selectExchangeToReuse,
} from './r11-reuse.js';
export { checkSaleCeiling } from './sale-ceiling.js';
export { checkCancelTransition, checkConfirmTransition } from './transitions.js';
