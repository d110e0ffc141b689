// Building blocks shared by every schema: Money, timestamps, identifiers as the spec writes them, Address.

import * as z from 'zod';
import { documentedObject } from './documented-object.js';
import { STORABLE_TEXT } from './storable-text.js';

/** An amount in integer cents, never negative; floats, NaN, Infinity and unsafe integers are refused. */
export const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * The default ceiling of one financed sale, and of every amount in it: R$ 100.000,00. A service may
 * lower it (`rules.maxGrandTotal`), never raise it (docs/spec-decisions.md, C-18).
 */
export const MAX_SALE_AMOUNT_CENTS = 10_000_000;

const currency = z.literal('BRL', { error: 'unsupported_currency' });

const moneyFields = {
  /** Integer cents (minor units): `123456` is R$ 1.234,56; never a float. */
  amount: cents,
  /** Always `BRL`; any other value is `unsupported_currency`. */
  currency,
};

/**
 * The schema of an amount, named: a schema of another file that holds one shows `amount` and `currency` with
 * their TSDoc (an unnamed type would be copied there without them, TD-1).
 */
export interface MoneySchema extends z.ZodObject<typeof moneyFields, z.core.$strip> {}

/** `{ amount, currency }` with `amount` in `[min, max]` integer cents, as a named OpenAPI component. */
const moneyBetween = (min: number, max: number, id: string, description: string): MoneySchema =>
  documentedObject({ ...moneyFields, amount: cents.min(min).max(max) }).meta({
    id,
    description: `${description} Integer cents (minor units); currency is always BRL.`,
  });

/** `{ amount, currency }`: non-negative integer cents, currency always BRL (anything else is `unsupported_currency`). */
const moneySchema = moneyBetween(0, Number.MAX_SAFE_INTEGER, 'Money', 'An amount.');
export type Money = z.infer<typeof moneySchema>;

/** Any amount in a sale (prices, line totals, subtotals): 0 to the sale ceiling. */
export const saleAmount = moneyBetween(
  0,
  MAX_SALE_AMOUNT_CENTS,
  'SaleAmount',
  `An amount in a sale: 0 to ${MAX_SALE_AMOUNT_CENTS} cents.`,
);

/** What is financed (a `grandTotal`, a proposal's amount): at least 1 cent, at most the sale ceiling. */
export const financedAmount = moneyBetween(
  1,
  MAX_SALE_AMOUNT_CENTS,
  'FinancedAmount',
  `A financed amount: 1 to ${MAX_SALE_AMOUNT_CENTS} cents.`,
);

/** DESIGN 17 (storable-text.ts): text every store can hold. */
const storable = [STORABLE_TEXT, 'must not contain NUL or unpaired UTF-16 surrogates'] as const;
export const text = z.string().regex(...storable);

/** ISO 8601 in UTC with a `Z` suffix; we always emit milliseconds (`toISOString()`). */
export const utcDateTime = z.iso.datetime({ offset: false, local: false });

export const uuid = z.uuid({ version: 'v4' });

/**
 * Valid values of an identifier (check digits included): JSON Schema `examples`, and the same values as the
 * hint dynamic mock generators follow (Prism's `x-faker`), since a pattern cannot carry check digits.
 */
function validSamples(values: string[]) {
  return { examples: values, 'x-faker': { 'helpers.arrayElement': [values] } };
}

// Identifiers as the spec's patterns write them. Check digits live in `identifiers/`; alphanumeric
// CNPJs (July 2026) are accepted where the spec writes digits (docs/spec-decisions.md).
const cpfSchema = z
  .string()
  .regex(/^[0-9]{11}$/, 'CPF must be 11 digits, no mask')
  .meta(validSamples(['52998224725', '11144477735', '12345678909']));
const cnpjSchema = z
  .string()
  .regex(/^[0-9A-Z]{12}[0-9]{2}$/, 'CNPJ must be 14 characters, no mask')
  .meta(validSamples(['12345678000195', '12345678000276', '11222333000181']));
export const zipCode = z
  .string()
  .regex(/^[0-9]{8}$/, 'CEP must be 8 digits, no mask or hyphen')
  .meta(validSamples(['01002000', '02722000']));
const imeiSchema = z
  .string()
  .regex(/^[0-9]{15}$/, 'IMEI must be exactly 15 digits')
  .meta(validSamples(['490154203237518', '356829101234567']));
export const nfeAccessKey = z
  .string()
  .regex(/^[0-9]{6}[0-9A-Z]{12}[0-9]{26}$/, 'NF-e access key must be 44 characters')
  .meta(validSamples(['35260112345678000195550010000012341000012343']));
export const stateCode = z.string().regex(/^[A-Z]{2}$/, 'state must be two uppercase letters');

/** storeId, planId, sku: at most 64 characters (spec section 8). */
export const shortId = text.min(1).max(64);

/** The issue message of a missing, empty or blank `storeId`: the code `store_context_required`. */
export const STORE_CONTEXT_REQUIRED = 'store_context_required';

/** the `storeId` of a store-scoped call; missing, empty or blank is `store_context_required`. */
export const storeContext = z
  .string({ error: (issue) => (issue.input == null ? STORE_CONTEXT_REQUIRED : undefined) })
  .min(1, STORE_CONTEXT_REQUIRED)
  .refine((storeId) => storeId === '' || storeId.trim() !== '', STORE_CONTEXT_REQUIRED)
  .max(64)
  .regex(...storable)
  .meta({
    description:
      'The store of the seller session (R-01). Missing, empty or blank: HTTP 400 `store_context_required`.',
  });

const addressFields = {
  /** Full street line, number and complement included. */
  street: text.min(1),
  /** City name. */
  city: text.min(1),
  /** State code, two uppercase letters (`SP`). */
  state: stateCode,
  /** CEP, 8 digits, no mask or hyphen (`01002000`). */
  zipCode,
};
/** The schema of an Address, named like `MoneySchema` so other files' schemas show its fields' TSDoc. */
export interface AddressSchema extends z.ZodObject<typeof addressFields, z.core.$strip> {}
export const address: AddressSchema = documentedObject(addressFields).meta({ id: 'Address' });
export type Address = z.infer<typeof address>;

/** The largest `pageSize` a list answers (spec section 8). */
export const MAX_PAGE_SIZE = 200;

const paginationFields = {
  /** The page answered, from 1: the one asked for. */
  page: z.number().int().min(1).meta({ description: 'The page answered, from 1; the one asked for.' }),
  /** Items per page, as asked (default 50, at most 200). */
  pageSize: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .meta({ description: 'Items per page, as asked (default 50).' }),
  /** Items in the whole list. */
  totalItems: z.number().int().min(0).meta({ description: 'Items in the whole list.' }),
  /** `ceil(totalItems / pageSize)`; 0 for an empty list. */
  totalPages: z
    .number()
    .int()
    .min(0)
    .meta({ description: '`ceil(totalItems / pageSize)`; 0 for an empty list.' }),
};
/** The schema of Pagination, named like `MoneySchema` so other files' schemas show its fields' TSDoc. */
export interface PaginationSchema extends z.ZodObject<typeof paginationFields, z.core.$strip> {}
export const pagination: PaginationSchema = documentedObject(paginationFields).meta({
  id: 'Pagination',
  description:
    'Pages add up: `totalPages = ceil(totalItems / pageSize)`, every page but the last holds `pageSize` ' +
    'items, the last the rest; a page after the last answers no items with the same totals.',
});
export type Pagination = z.infer<typeof pagination>;

/** Query of a paged list: page >= 1 (default 1), pageSize 1..200 (default 50). */
export const pageQuery = documentedObject({
  /** The page asked for, from 1 (default 1). */
  page: z.coerce.number().int().min(1).default(1),
  /** Items per page, 1 to 200 (default 50). */
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
});
export type PageQuery = z.input<typeof pageQuery>;

// Local names apart from the root's `cpf`/`cnpj`/`imei`/`money` namespaces, so the declaration bundle needs no `cpf$1` alias.
export { cnpjSchema as cnpj, cpfSchema as cpf, imeiSchema as imei, moneySchema as money };
