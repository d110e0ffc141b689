// The API clients of the multi-process tests: one per test, so each has its own write-rate window.
import type { ClientRegistration } from '@fin/server-kit';

export const LOAD_STORE = 'store-a1';

export const LOAD_PARTNERS: ClientRegistration[] = ['imei', 'idempotency', 'rate', 'restart'].map((name) => ({
  clientId: `load-${name}`,
  clientSecret: `secret-${name}`,
  scopes: ['sales:authorize'],
  storeIds: [LOAD_STORE],
}));

export const partnerFor = (name: 'imei' | 'idempotency' | 'rate' | 'restart') =>
  LOAD_PARTNERS.find((partner) => partner.clientId === `load-${name}`)!;
