// The API clients of the multi-process tests: one per test, so each has its own write-rate window.
import { cpf } from '@fin/core';
import type { ClientRegistration } from '@fin/server-kit';

export const LOAD_STORE = 'store-a1';

const NAMES = [
  'imei',
  'idempotency',
  'rate',
  'restart',
  'faults',
  'window',
  'webhook-stalled',
  'webhook-healthy',
] as const;

export const LOAD_PARTNERS: ClientRegistration[] = NAMES.map((name) => ({
  clientId: `load-${name}`,
  clientSecret: `secret-${name}`,
  scopes: ['sales:authorize'],
  storeIds: [LOAD_STORE],
}));

export const partnerFor = (name: (typeof NAMES)[number]) =>
  LOAD_PARTNERS.find((partner) => partner.clientId === `load-${name}`)!;

/** A valid CPF built from `n`: a different customer for each `n`. */
export function customer(n: number): string {
  const body = String(100_000_000 + n).slice(-9);
  for (let check = 0; check < 100; check++) {
    const candidate = `${body}${String(check).padStart(2, '0')}`;
    if (cpf.isValid(candidate)) return candidate;
  }
  throw new Error('unreachable: one pair of check digits always fits');
}
