// Authorization records to and from their rows: fin_authorizations (one column per field) joined with fin_contracts.
import { money } from '@fin/core';
import type { JsonValue } from '../ports/records.js';
import { type AuthorizationRecord, authorizationRecord } from '../ports/records.js';

/** The columns the store writes, in the order of `authorizationValues`. */
export const AUTHORIZATION_COLUMNS = [
  'authorization_id',
  'client_id',
  'status',
  'version',
  'issued_at',
  'expires_at',
  'updated_at',
  'correlation_id',
  'client_tax_id',
  'store_id',
  'imei',
  'grand_total_cents',
  'cart',
  'proposal_id',
  'proposal_use',
  'sale_number',
  'invoice_number',
  'nfe_access_key',
  'invoiced_at',
  'confirmed_at',
  'cancellation_reason',
  'cancellation_description',
  'cancelled_at',
  'cancellation_noticed_at',
  'cancellation_verification',
  'cancellation_attempts',
  'cancellation_next_attempt_at',
  'cancellation_verified_at',
  'cancellation_last_outcome',
] as const;

type Column = (typeof AUTHORIZATION_COLUMNS)[number];

/** Each column's SQL type (migration 1), for statements whose values are not typed by a VALUES list. */
export const AUTHORIZATION_COLUMN_TYPES: Record<Column, string> = {
  authorization_id: 'text',
  client_id: 'text',
  status: 'text',
  version: 'integer',
  issued_at: 'timestamptz',
  expires_at: 'timestamptz',
  updated_at: 'timestamptz',
  correlation_id: 'text',
  client_tax_id: 'text',
  store_id: 'text',
  imei: 'text',
  grand_total_cents: 'bigint',
  cart: 'jsonb',
  proposal_id: 'text',
  proposal_use: 'integer',
  sale_number: 'text',
  invoice_number: 'text',
  nfe_access_key: 'text',
  invoiced_at: 'timestamptz',
  confirmed_at: 'timestamptz',
  cancellation_reason: 'text',
  cancellation_description: 'text',
  cancelled_at: 'timestamptz',
  cancellation_noticed_at: 'timestamptz',
  cancellation_verification: 'text',
  cancellation_attempts: 'integer',
  cancellation_next_attempt_at: 'timestamptz',
  cancellation_verified_at: 'timestamptz',
  cancellation_last_outcome: 'text',
};

/** Reads whole records: every authorization column and its contract, if any. */
export const SELECT_AUTHORIZATIONS = `
  SELECT a.*, c.contract_id, c.principal_cents, c.installments, c.created_at AS contract_created_at
  FROM fin_authorizations a LEFT JOIN fin_contracts c ON c.authorization_id = a.authorization_id`;

/** R-10's active record of an IMEI as of now: the WHERE clause, over placeholders of IMEI and now. */
export const activeByImeiWhere = (imei: string, now: string) =>
  `WHERE a.imei = ${imei} AND (a.status = 'CONFIRMED' OR (a.status = 'AUTHORIZED' AND a.expires_at > ${now}))`;

/** A client's exchange notices of a CPF, newest first: over placeholders of client and CPF. */
export const exchangeNoticesWhere = (clientId: string, clientTaxId: string) =>
  `WHERE a.client_id = ${clientId} AND a.client_tax_id = ${clientTaxId} AND a.cancellation_reason = 'EXCHANGE'
   ORDER BY a.issued_at DESC, a.authorization_id`;

export interface AuthorizationRow extends Record<Column, unknown> {
  contract_id: string | null;
  principal_cents: number | null;
  installments: JsonValue | null;
  contract_created_at: Date | null;
}

/** `record`'s values for `AUTHORIZATION_COLUMNS`, with `version` as given. */
export function authorizationValues(record: AuthorizationRecord, version: number): unknown[] {
  const { confirmation: confirmed, cancellation: notice } = record;
  return [
    record.authorizationId,
    record.clientId,
    record.status,
    version,
    record.issuedAt,
    record.expiresAt,
    record.updatedAt,
    record.correlationId ?? null,
    record.clientTaxId,
    record.storeId,
    record.imei,
    record.grandTotal.amount,
    JSON.stringify(record.cart),
    record.proposalId,
    record.proposalUse,
    confirmed?.saleNumber ?? null,
    confirmed?.invoiceNumber ?? null,
    confirmed?.nfeAccessKey ?? null,
    confirmed?.invoicedAt ?? null,
    record.confirmedAt,
    notice?.reason ?? null,
    notice?.description ?? null,
    notice?.cancelledAt ?? null,
    notice?.noticedAt ?? null,
    notice?.verification ?? null,
    notice?.attempts ?? null,
    notice?.nextAttemptAt ?? null,
    notice?.verifiedAt ?? null,
    notice?.lastOutcome ?? null,
  ];
}

/** A timestamp as pg reads it (a Date) or as `row_to_json` writes it (text). */
const iso = (value: unknown) =>
  value instanceof Date || typeof value === 'string' ? new Date(value).toISOString() : null;
/** Optional fields are left out rather than set to undefined, as the record schemas have them. */
const optional = <K extends string>(key: K, value: unknown) =>
  value === null || value === undefined ? {} : ({ [key]: value } as Record<K, unknown>);

/** The record a row holds, checked against the record schema (a hand-edited row fails loudly). */
export function toAuthorizationRecord(row: AuthorizationRow): AuthorizationRecord {
  return authorizationRecord.parse({
    authorizationId: row.authorization_id,
    clientId: row.client_id,
    status: row.status,
    version: row.version,
    issuedAt: iso(row.issued_at),
    expiresAt: iso(row.expires_at),
    updatedAt: iso(row.updated_at),
    ...optional('correlationId', row.correlation_id),
    clientTaxId: row.client_tax_id,
    storeId: row.store_id,
    imei: row.imei,
    grandTotal: money.brl(row.grand_total_cents as number),
    cart: row.cart,
    proposalId: row.proposal_id,
    proposalUse: row.proposal_use,
    confirmation:
      row.sale_number === null
        ? null
        : {
            saleNumber: row.sale_number,
            invoiceNumber: row.invoice_number,
            nfeAccessKey: row.nfe_access_key,
            invoicedAt: iso(row.invoiced_at),
          },
    confirmedAt: iso(row.confirmed_at),
    contract:
      row.contract_id === null
        ? null
        : {
            contractId: row.contract_id,
            principal: money.brl(row.principal_cents as number),
            installments: row.installments,
            createdAt: iso(row.contract_created_at),
          },
    cancellation:
      row.cancellation_reason === null
        ? null
        : {
            reason: row.cancellation_reason,
            ...optional('description', row.cancellation_description),
            ...optional('cancelledAt', iso(row.cancelled_at)),
            noticedAt: iso(row.cancellation_noticed_at),
            verification: row.cancellation_verification,
            attempts: row.cancellation_attempts,
            nextAttemptAt: iso(row.cancellation_next_attempt_at),
            verifiedAt: iso(row.cancellation_verified_at),
            ...optional('lastOutcome', row.cancellation_last_outcome),
          },
  });
}
