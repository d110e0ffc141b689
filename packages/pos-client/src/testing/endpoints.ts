// The Partner POS endpoints the simulation serves, read from the endpoint registry and named `METHOD /path`.
import { endpoints } from '@fin/core';

type Api = endpoints.PartnerPosEndpoints;

/** The operationId of an endpoint of the Partner POS API. */
export type PosOperation = keyof Api;

/** An endpoint as the request log and the fault controls name it: `GET /v1/products`. */
export type PosEndpoint = { [Id in PosOperation]: endpoints.EndpointName<Api[Id]> }[PosOperation];

/** Every endpoint of the Partner POS API, in the registry's order (spec section 4). */
export const posEndpoints: readonly PosEndpoint[] = Object.values(endpoints.partnerPos).map(
  endpoints.endpointName,
);

const match = endpoints.createEndpointMatcher(endpoints.partnerPos);

/**
 * What a request addresses: an endpoint, a path the partner has not (`not_found`), or a method its path has
 * not (`method_not_allowed`, with the path's methods in `allow`); and whether its path is the token endpoint's.
 */
export type Addressed = (
  | { operation: PosOperation }
  | { operation: 'unknown'; code: 'not_found' }
  | { operation: 'unknown'; code: 'method_not_allowed'; allow: string }
) & { atTokenPath: boolean };

/** The endpoint a request addresses, whatever base path the partner is mounted under. */
export function endpointOf(method: string, pathname: string): Addressed {
  const at = pathname.indexOf('/v1/');
  const path = at === -1 ? pathname : pathname.slice(at).replace(/\/+$/, '');
  const found = match(method, path);
  const atTokenPath = path === endpoints.tokenPath;
  if (found.ok) return { operation: found.operationId, atTokenPath };
  if (found.code === 'not_found') return { operation: 'unknown', code: 'not_found', atTokenPath };
  return { operation: 'unknown', code: found.code, allow: found.allow, atTokenPath };
}
