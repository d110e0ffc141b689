// The endpoint registry: every endpoint of both APIs as data, read by the clients, the servers and the documents.

export { type ClientAuthMethod, type ClientCredentials, clientCredentialsOf } from './client-credentials.js';
export {
  defineEndpoint,
  type EndpointData,
  type EndpointDefinition,
  type EndpointName,
  type EndpointTable,
  type ErrorFormat,
  endpointName,
  type NamedExample,
  perMinuteOf,
  type RateClass,
} from './endpoint.js';
export { endpointErrorCodes } from './error-codes.js';
export { type PartnerPosEndpoints, partnerPosEndpoints as partnerPos } from './partner-pos.js';
export { createEndpointMatcher, type EndpointMatch, endpointPath } from './path-template.js';
export { type EndpointInput, endpointRequest } from './request.js';
export {
  type SalesAuthorizationEndpoints,
  salesAuthorizationEndpoints as salesAuthorization,
} from './sales-authorization.js';
export { tokenPath } from './token.js';
export {
  TOKEN_FAILURES_PER_MINUTE,
  tokenBudgetKey,
  UNKNOWN_CLIENT_FAILURE_KEY,
} from './token-budgets.js';
