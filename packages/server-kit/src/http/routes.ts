// The router of the Sales Authorization API, read from the endpoint registry; anything else is 404, a wrong method 405.
import { endpoints } from '@fin/core';

export type OperationId = keyof endpoints.SalesAuthorizationEndpoints;

/** The endpoint a method and path address, with the decoded `{id}` of a call on one authorization. */
export const matchEndpoint = endpoints.createEndpointMatcher(endpoints.salesAuthorization);

/** What `matchEndpoint` answers for one request: made once, read by the telemetry and the handler alike. */
export type RouteMatch = ReturnType<typeof matchEndpoint>;
