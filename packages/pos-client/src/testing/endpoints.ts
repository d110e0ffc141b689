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
 * The endpoint a request addresses, whatever base path the partner is mounted under; `unknown-path`
 * or `wrong-method` otherwise.
 */
export function endpointOf(method: string, pathname: string): PosOperation | 'unknown-path' | 'wrong-method' {
  const at = pathname.indexOf('/v1/');
  const path = at === -1 ? pathname : pathname.slice(at).replace(/\/+$/, '');
  const found = match(method, path);
  if (found.ok) return found.operationId;
  return found.code === 'method_not_allowed' ? 'wrong-method' : 'unknown-path';
}
