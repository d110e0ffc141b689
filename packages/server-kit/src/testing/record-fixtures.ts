// Valid Store records for tests: a proposal and an AUTHORIZED authorization issued at the suites' T0.
import { randomUUID } from 'node:crypto';
import type { AuthorizationRecord, ProposalRecord } from '../ports/records.js';
import { cartFixture } from './cart-fixture.js';

const MINUTE = 60_000;
const T0 = new Date('2026-03-02T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** A valid proposal; override what the test is about. */
export function proposalFixture(overrides: Partial<ProposalRecord> = {}): ProposalRecord {
  return {
    proposalId: `prop_${randomUUID()}`,
    clientTaxId: '52998224725',
    storeId: 'store-1',
    amount: { amount: 250_000, currency: 'BRL' },
    installments: 10,
    approvedAt: T0.toISOString(),
    source: 'MANUAL',
    ...overrides,
  };
}

/** A valid AUTHORIZED record issued at `T0` (expires 15 minutes later); override what the test is about. */
export function authorizationFixture(overrides: Partial<AuthorizationRecord> = {}): AuthorizationRecord {
  const issuedAt = overrides.issuedAt ?? T0.toISOString();
  const imei = overrides.imei ?? '356938035643809';
  const clientTaxId = overrides.clientTaxId ?? '52998224725';
  const storeId = overrides.storeId ?? 'store-1';
  const body = cartFixture({ imei, clientTaxId, storeId, price: 250_000 });
  return {
    authorizationId: `auth_${randomUUID()}`,
    clientId: 'partner-a',
    status: 'AUTHORIZED',
    version: 1,
    issuedAt,
    expiresAt: new Date(Date.parse(issuedAt) + 15 * MINUTE).toISOString(),
    updatedAt: issuedAt,
    clientTaxId,
    storeId,
    imei,
    grandTotal: body.totals.grandTotal,
    cart: { ...body, services: body.services ?? [] },
    proposalId: `prop_${randomUUID()}`,
    proposalUse: 0,
    confirmation: null,
    confirmedAt: null,
    contract: null,
    cancellation: null,
    ...overrides,
  };
}

/** `record` confirmed at 2 minutes, with its contract (`contractId` given, or `ctr_1`). */
export const confirmedRecord = (record: AuthorizationRecord, contractId = 'ctr_1'): AuthorizationRecord => ({
  ...record,
  status: 'CONFIRMED',
  confirmation: {
    saleNumber: 'S-1',
    invoiceNumber: 'NF-1',
    nfeAccessKey: '35260312345678000190550010000000011000000010',
    invoicedAt: at(MINUTE).toISOString(),
  },
  confirmedAt: at(2 * MINUTE).toISOString(),
  contract: {
    contractId,
    principal: record.grandTotal,
    installments: [{ number: 1, amount: record.grandTotal, dueDate: '2026-04-02' }],
    createdAt: at(2 * MINUTE).toISOString(),
  },
  updatedAt: at(2 * MINUTE).toISOString(),
});
