// Building blocks shared by every schema: Money, timestamps, identifiers as the spec writes them, Address.
import * as z from 'zod';

/** An amount in integer cents; floats, NaN, Infinity and unsafe integers are refused. */
export const cents = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** `{ amount, currency }`: integer cents, currency always BRL (anything else is `unsupported_currency`). */
export const money = z
  .object({
    amount: cents,
    currency: z.literal('BRL', { error: 'unsupported_currency' }),
  })
  .meta({ id: 'Money', description: 'Amount in integer cents (minor units); currency is always BRL.' });
export type Money = z.infer<typeof money>;

/** ISO 8601 in UTC with a `Z` suffix; we always emit milliseconds (`toISOString()`). */
export const utcDateTime = z.iso.datetime({ offset: false, local: false });

export const uuid = z.uuid({ version: 'v4' });

// Identifiers as the spec's patterns write them. Check digits live in `identifiers/`; alphanumeric
// CNPJs (July 2026) are accepted where the spec writes digits (docs/spec-decisions.md).
export const cpf = z.string().regex(/^[0-9]{11}$/, 'CPF must be 11 digits, no mask');
export const cnpj = z.string().regex(/^[0-9A-Z]{12}[0-9]{2}$/, 'CNPJ must be 14 characters, no mask');
export const zipCode = z.string().regex(/^[0-9]{8}$/, 'CEP must be 8 digits, no mask or hyphen');
export const imei = z.string().regex(/^[0-9]{15}$/, 'IMEI must be exactly 15 digits');
export const nfeAccessKey = z
  .string()
  .regex(/^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/, 'NF-e access key must be 44 characters');
export const stateCode = z.string().regex(/^[A-Z]{2}$/, 'state must be two uppercase letters');

/** storeId, planId, sku: at most 64 characters (spec section 8). */
export const shortId = z.string().min(1).max(64);

export const address = z
  .object({
    street: z.string().min(1),
    city: z.string().min(1),
    state: stateCode,
    zipCode,
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof address>;

export const pagination = z
  .object({
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    totalItems: z.number().int().min(0),
    totalPages: z.number().int().min(0),
  })
  .meta({ id: 'Pagination' });
export type Pagination = z.infer<typeof pagination>;

/** Query of a paged list: page >= 1 (default 1), pageSize 1..200 (default 50). */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type PageQuery = z.input<typeof pageQuery>;
