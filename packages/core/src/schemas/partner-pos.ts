// Partner POS API (spec sections 2 and 4): resources, queries and payloads the financing service reads.
import * as z from 'zod';
import {
  address,
  cnpj,
  cpf,
  imei,
  money,
  nfeAccessKey,
  pageQuery,
  pagination,
  shortId,
  text,
  utcDateTime,
} from './primitives.js';

// Seller session -----------------------------------------------------------------------------------

/** Login request shape (a): CPF and password. The password is write-only: never logged or kept. */
export const sellerLoginByCpf = z
  .strictObject({ cpf, password: z.string().min(1).meta({ writeOnly: true, format: 'password' }) })
  .meta({ id: 'SellerLoginByCpf' });
/** Login request shape (b): username (max 120) and password. */
export const sellerLoginByUsername = z
  .strictObject({
    username: z.string().min(1).max(120),
    password: z.string().min(1).meta({ writeOnly: true, format: 'password' }),
  })
  .meta({ id: 'SellerLoginByUsername' });
export const sellerLoginRequest = z.union([sellerLoginByCpf, sellerLoginByUsername]);
export type SellerLoginRequest = z.infer<typeof sellerLoginRequest>;

export const sellerRole = z.enum(['SELLER', 'SUPERVISOR', 'MANAGER']);
export type SellerRole = z.infer<typeof sellerRole>;

const sessionFields = {
  sellerId: z.string().min(1),
  sellerName: z.string(),
  storeId: shortId,
  storeName: z.string(),
  storeCnpj: cnpj,
  storeAddress: address,
  accessToken: z.string().min(1),
  expiresAt: utcDateTime,
};

/** Response shape (b): the session object directly in `data`, with `taxId` and `role`. */
export const sellerSessionFlat = z
  .object({ ...sessionFields, taxId: cpf, role: z.string().optional() })
  .meta({ id: 'SellerSession' });
export type SellerSessionFlat = z.infer<typeof sellerSessionFlat>;

/** The session inside the status-wrapped shape (a): `cpf`, `isManager`, `jobTitle`. */
export const sellerSessionWrapped = z
  .object({ ...sessionFields, cpf, isManager: z.boolean().optional(), jobTitle: z.string().optional() })
  .meta({ id: 'SellerSessionWrapped' });
export type SellerSessionWrapped = z.infer<typeof sellerSessionWrapped>;

export const sellerAuthStatus = z.enum(['AUTHORIZED', 'INVALID_PASSWORD', 'USER_NOT_FOUND']);
export type SellerAuthStatus = z.infer<typeof sellerAuthStatus>;

/**
 * Response shape (a): an accepted login is `authorized: true`, `status: AUTHORIZED` and the session; a
 * failed one is HTTP 200 with `authorized: false`, the reason in `status` and `session: null`. The three
 * fields agree, so the document says which combinations exist (and a mock generator keeps them).
 */
export const sellerAuthResult = z
  .union([
    z.object({
      authorized: z.literal(true),
      status: z.literal('AUTHORIZED'),
      message: z.string(),
      session: sellerSessionWrapped,
    }),
    z.object({
      authorized: z.literal(false),
      status: sellerAuthStatus.exclude(['AUTHORIZED']),
      message: z.string(),
      session: z.null(),
    }),
  ])
  .meta({ id: 'SellerAuthResult' });
export type SellerAuthResult = z.infer<typeof sellerAuthResult>;

// Catalog ------------------------------------------------------------------------------------------

/**
 * Lengths of partner text the spec leaves open, generous (docs/spec-decisions.md HP-4): a name 300
 * characters, a description 4 000, any other short text (brand, model, phone, e-mail, job title) 200.
 */
export const PARTNER_TEXT_LIMITS = Object.freeze({ name: 300, description: 4000, short: 200 });
const partnerName = z.string().max(PARTNER_TEXT_LIMITS.name);
const partnerDescription = z.string().max(PARTNER_TEXT_LIMITS.description);
const partnerShort = z.string().max(PARTNER_TEXT_LIMITS.short);

/** Which employee fields are required is not shown: we require `cpf` (the key) and `name`. */
export const employee = z
  .object({
    cpf,
    name: partnerName,
    phone: partnerShort.optional(),
    email: partnerShort.optional(),
    storeId: shortId.optional(),
    isManager: z.boolean().optional(),
    jobTitle: partnerShort.optional(),
  })
  .meta({ id: 'Employee' });
export type Employee = z.infer<typeof employee>;

export const store = z.object({ storeId: shortId, name: partnerName, cnpj, address }).meta({ id: 'Store' });
export type Store = z.infer<typeof store>;

export const plan = z
  .object({ planId: shortId, name: partnerName, monthlyPrice: money })
  .meta({ id: 'Plan' });
export type Plan = z.infer<typeof plan>;

/** `SMARTPHONE` or `ACCESSORY` in the catalog; carts use further values, so any string is read. */
export const productType = text.min(1).max(64);

/** A catalog product. The synchronized list omits stock by design; the barcode lookup includes it. */
export const product = z
  .object({
    sku: shortId,
    productType,
    name: partnerName,
    brand: partnerShort.optional(),
    model: partnerShort.optional(),
    description: partnerDescription.optional(),
    storage: partnerShort.optional(),
    price: money,
    stock: z.number().int().min(0).optional(),
  })
  .meta({ id: 'Product' });
export type Product = z.infer<typeof product>;

export const productWithStock = product
  .extend({ stock: z.number().int().min(0) })
  .meta({ id: 'ProductWithStock' });
export type ProductWithStock = z.infer<typeof productWithStock>;

export const serviceType = z.enum(['EXTENDED_WARRANTY', 'INSURANCE', 'PROTECTION']);
export type ServiceType = z.infer<typeof serviceType>;

export const service = z
  .object({
    serviceId: shortId,
    name: partnerName,
    description: partnerDescription.optional(),
    type: serviceType,
    price: money,
  })
  .meta({ id: 'Service' });
export type Service = z.infer<typeof service>;

// Real time ----------------------------------------------------------------------------------------

/**
 * `GET /v1/stock` (shape not shown by the spec; settled in DESIGN.md 8): the count is named `stock`, like
 * Product's. `partnerStockLevel` also reads a partner's `quantity` as `stock`.
 */
export const stockLevel = z
  .object({
    sku: shortId,
    storeId: shortId,
    stock: z.number().int().min(0),
    updatedAt: utcDateTime,
    /** v1.1, optional (SR-9): units of `stock` held by active reservations; available = stock - reserved. */
    reserved: z.number().int().min(0).optional(),
  })
  .meta({ id: 'StockLevel' });
export type StockLevel = z.infer<typeof stockLevel>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `GET /v1/stock` as the partner's answer is read (by `@fin/pos-client` and `@fin/pos-check`): a partner that
 * names the count `quantity` is read the same way (`stock` wins when both are sent); a count under neither
 * name fails at `data.stock`.
 */
export const partnerStockLevel = z.preprocess(
  (value) =>
    isRecord(value) && value.stock === undefined && value.quantity !== undefined
      ? { ...value, stock: value.quantity }
      : value,
  stockLevel,
);

export const imeiValidation = z
  .object({
    imeiValid: z.boolean(),
    inStock: z.boolean(),
    sku: z.string().optional(),
    name: partnerName.optional(),
    brand: partnerShort.optional(),
    model: partnerShort.optional(),
    description: partnerDescription.optional(),
    storage: partnerShort.optional(),
    message: z.string().optional(),
    /** Not in the spec's field list; read when a POS sends it, to tell a device held by another store. */
    storeId: shortId.optional(),
  })
  .meta({ id: 'ImeiValidation' });
export type ImeiValidation = z.infer<typeof imeiValidation>;

export const saleStatusValue = z.enum(['PENDING', 'ACTIVE', 'CANCELLED']);
export type SaleStatusValue = z.infer<typeof saleStatusValue>;

export const saleStatus = z
  .object({
    status: saleStatusValue,
    saleNumber: z.string(),
    orderNumber: z.string().optional(),
    invoiceNumber: z.string().optional(),
    nfeAccessKey: nfeAccessKey.optional(),
    saleDate: utcDateTime,
    cancellationDate: utcDateTime.nullable().optional(),
    message: z.string().optional(),
    /** Not in the spec's field list; read when a POS sends it, to match a sale to a device. */
    imei: imei.optional(),
  })
  .meta({ id: 'SaleStatus' });
export type SaleStatus = z.infer<typeof saleStatus>;

/** Sale search body: exactly one of `taxId` or `imei`; the CPF never travels in a URL. */
export const saleSearchRequest = z
  .union([z.strictObject({ taxId: cpf }), z.strictObject({ imei })])
  .meta({ id: 'SaleSearchRequest' });
export type SaleSearchRequest = z.infer<typeof saleSearchRequest>;

// Queries ------------------------------------------------------------------------------------------

export const employeesQuery = pageQuery;
export const storesQuery = pageQuery;
export const plansQuery = z.object({ storeId: shortId });
export const productsQuery = pageQuery.extend({ storeId: shortId, planId: shortId });
export const barcodeQuery = z.object({ storeId: shortId, barcode: z.string().min(6).max(32) });
export const servicesQuery = z.object({ storeId: shortId, sku: shortId });
export const stockQuery = z.object({ storeId: shortId, sku: shortId });
export const imeiQuery = z.object({ storeId: shortId, imei });

// Payloads (`data` of each endpoint) ---------------------------------------------------------------

export const employeesPage = z.object({ employees: z.array(employee), pagination });
export type EmployeesPage = z.infer<typeof employeesPage>;
export const storesPage = z.object({ stores: z.array(store), pagination });
export type StoresPage = z.infer<typeof storesPage>;
export const plansList = z.object({ plans: z.array(plan) });
export type PlansList = z.infer<typeof plansList>;
export const productsPage = z.object({ products: z.array(product), pagination });
export type ProductsPage = z.infer<typeof productsPage>;
export const servicesList = z.object({ services: z.array(service) });
export type ServicesList = z.infer<typeof servicesList>;
export const saleSearchResult = z.object({ sales: z.array(saleStatus) });
export type SaleSearchResult = z.infer<typeof saleSearchResult>;
/** `data` of the seller session endpoint: shape (a) or shape (b). */
export const sellerSessionResponse = z.union([sellerAuthResult, sellerSessionFlat]);
export type SellerSessionResponse = z.infer<typeof sellerSessionResponse>;

// Stock reservation (spec v1.1, optional; DESIGN 24, issue 30) -----------------------------------

/** TTL of a hold in seconds (SR-4): never shorter than R-06's 15 minutes, 30 by default, 2 hours at most. */
export const reservationTtl = { minSeconds: 900, defaultSeconds: 1800, maxSeconds: 7200 } as const;

const ttlSeconds = z
  .number()
  .int()
  .min(reservationTtl.minSeconds)
  .max(reservationTtl.maxSeconds)
  .meta({ description: 'Seconds from now the hold lasts; default 1800 (30 minutes).' });

/** `ACTIVE` holds stock; `RELEASED`, `EXPIRED` and `COMMITTED` (the POS invoiced it) are final. */
export const reservationState = z.enum(['ACTIVE', 'RELEASED', 'EXPIRED', 'COMMITTED']);
export type ReservationState = z.infer<typeof reservationState>;

/** A hold of one smartphone by IMEI, or of `quantity` units of an accessory SKU. The store is the query's `storeId`. */
export const reservationRequest = z
  .union([
    z.strictObject({ imei, ttlSeconds: ttlSeconds.optional() }),
    z.strictObject({
      sku: shortId,
      quantity: z.number().int().min(1).max(99),
      ttlSeconds: ttlSeconds.optional(),
    }),
  ])
  .meta({ id: 'StockReservationRequest' });
export type ReservationRequest = z.infer<typeof reservationRequest>;

/** Extend: the hold lasts `ttlSeconds` from now (never less than it already had). */
export const reservationExtendRequest = z
  .strictObject({ ttlSeconds: ttlSeconds.optional() })
  .meta({ id: 'StockReservationExtendRequest' });
export type ReservationExtendRequest = z.infer<typeof reservationExtendRequest>;

export const stockReservation = z
  .object({
    reservationId: shortId,
    storeId: shortId,
    state: reservationState,
    sku: shortId,
    quantity: z.number().int().min(1),
    /** Present on a smartphone hold. */
    imei: imei.optional(),
    createdAt: utcDateTime,
    /** When an `ACTIVE` hold becomes `EXPIRED`; kept as it was once the hold ends. */
    expiresAt: utcDateTime,
    /** When the hold left `ACTIVE` (released, expired or committed). */
    endedAt: utcDateTime.optional(),
  })
  .meta({ id: 'StockReservation' });
export type StockReservation = z.infer<typeof stockReservation>;

export const reservationQuery = z.object({ storeId: shortId });
