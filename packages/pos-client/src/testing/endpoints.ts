// The eleven Partner POS endpoints (spec section 4), named `METHOD /path` as the simulation counts them.
import type { Scope } from '@fin/core';

export const posEndpoints = [
  'POST /v1/oauth/token',
  'POST /v1/sellers/session',
  'GET /v1/employees',
  'GET /v1/stores',
  'GET /v1/plans',
  'GET /v1/products',
  'GET /v1/products/barcode',
  'GET /v1/services',
  'GET /v1/stock',
  'GET /v1/imei/validate',
  'POST /v1/sales/search',
] as const;

export type PosEndpoint = (typeof posEndpoints)[number];

/** The scope each endpoint needs (none for the token and the seller session), as the OpenAPI document states. */
export const endpointScopes: Record<PosEndpoint, Scope | undefined> = {
  'POST /v1/oauth/token': undefined,
  'POST /v1/sellers/session': undefined,
  'GET /v1/employees': 'catalog:read',
  'GET /v1/stores': 'catalog:read',
  'GET /v1/plans': 'catalog:read',
  'GET /v1/products': 'catalog:read',
  'GET /v1/products/barcode': 'catalog:read',
  'GET /v1/services': 'catalog:read',
  'GET /v1/stock': 'inventory:read',
  'GET /v1/imei/validate': 'inventory:read',
  'POST /v1/sales/search': 'sales:read',
};

const byName = new Set<string>(posEndpoints);
const paths = new Set(posEndpoints.map((endpoint) => endpoint.split(' ')[1]!));

/**
 * The endpoint a request addresses, whatever base path the partner is mounted under; `unknown-path`
 * or `wrong-method` otherwise.
 */
export function endpointOf(method: string, pathname: string): PosEndpoint | 'unknown-path' | 'wrong-method' {
  const at = pathname.indexOf('/v1/');
  const path = at === -1 ? pathname : pathname.slice(at).replace(/\/+$/, '');
  const name = `${method.toUpperCase()} ${path}`;
  if (byName.has(name)) return name as PosEndpoint;
  return paths.has(path) ? 'wrong-method' : 'unknown-path';
}
