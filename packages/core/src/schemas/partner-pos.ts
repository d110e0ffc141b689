// Partner POS API (spec sections 2 and 4): resources, queries and payloads the financing service reads.
import * as z from 'zod';
import { documentedObject, documentedStrictObject } from './documented-object.js';
import { openValues } from './open-values.js';
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

export const sellerRole = z.enum(['SELLER', 'SUPERVISOR', 'MANAGER']);
export type SellerRole = z.infer<typeof sellerRole>;

/** The seller's password: write-only, never logged, kept or shown. */
const sellerPassword = z.string().min(1).meta({ writeOnly: true, format: 'password' });

/** Login request shape (a): CPF and password. The password is write-only: never logged or kept. */
export const sellerLoginByCpf = documentedStrictObject({
  /** The seller's CPF, 11 digits, no mask. */
  cpf,
  /** The seller's password: write-only, passed through and discarded, never logged. */
  password: sellerPassword,
}).meta({ id: 'SellerLoginByCpf' });
/** Login request shape (b): username (max 120) and password. */
export const sellerLoginByUsername = documentedStrictObject({
  /** The seller's username at the POS, at most 120 characters. */
  username: z.string().min(1).max(120),
  /** The seller's password: write-only, passed through and discarded, never logged. */
  password: sellerPassword,
}).meta({ id: 'SellerLoginByUsername' });
export const sellerLoginRequest = z.union([sellerLoginByCpf, sellerLoginByUsername]);
export type SellerLoginRequest = z.infer<typeof sellerLoginRequest>;

const sessionFields = {
  /** The seller's id at the POS. */
  sellerId: z.string().min(1),
  /** The seller's name. */
  sellerName: z.string(),
  /** The store of the session: required on every later catalog, stock and sale call. */
  storeId: shortId,
  /** The store's name. */
  storeName: z.string(),
  /** The store's CNPJ, 14 characters, no mask. */
  storeCnpj: cnpj,
  /** The store's address, all four fields. */
  storeAddress: address,
  /** The seller session token, scoped to the store. */
  accessToken: z.string().min(1),
  /** When the session ends (set by the partner POS). */
  expiresAt: utcDateTime,
};

/** Response shape (b): the session object directly in `data`, with `taxId` and `role`. */
export const sellerSessionFlat = documentedObject({
  ...sessionFields,
  /** The seller's CPF, 11 digits, no mask: links the session to the seller's record. */
  taxId: cpf,
  /** `SELLER`, `SUPERVISOR`, `MANAGER` or another value the partner sends. */
  role: openValues<SellerRole>(z.string()).optional(),
}).meta({ id: 'SellerSession' });
export type SellerSessionFlat = z.infer<typeof sellerSessionFlat>;

/** The session inside the status-wrapped shape (a): `cpf`, `isManager`, `jobTitle`. */
export const sellerSessionWrapped = documentedObject({
  ...sessionFields,
  /** The seller's CPF, 11 digits, no mask: links the session to the seller's record. */
  cpf,
  /** Whether the seller is a manager: controls what the financing service permits. */
  isManager: z.boolean().optional(),
  /** Free text, descriptive only: no effect on permissions. */
  jobTitle: z.string().optional(),
}).meta({ id: 'SellerSessionWrapped' });
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
    documentedObject({
      /** `true`: the seller is logged in. */
      authorized: z.literal(true),
      /** `AUTHORIZED`. */
      status: z.literal('AUTHORIZED'),
      /** Text fit for display to the seller. */
      message: z.string(),
      /** The seller's session and store context. */
      session: sellerSessionWrapped,
    }),
    documentedObject({
      /** `false`: the login failed (still HTTP 200). */
      authorized: z.literal(false),
      /** `INVALID_PASSWORD` or `USER_NOT_FOUND`. */
      status: sellerAuthStatus.exclude(['AUTHORIZED']),
      /** Text fit for display to the seller; best the same for both failures. */
      message: z.string(),
      /** `null`: no session. */
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
export const employee = documentedObject({
  /** The employee's CPF, 11 digits, no mask: the key of the record. */
  cpf,
  /** The employee's name. */
  name: partnerName,
  /** The employee's phone number. */
  phone: partnerShort.optional(),
  /** The employee's e-mail address. */
  email: partnerShort.optional(),
  /** The store the employee works at. */
  storeId: shortId.optional(),
  /** Whether the employee is a manager. */
  isManager: z.boolean().optional(),
  /** Free text, descriptive only. */
  jobTitle: partnerShort.optional(),
}).meta({ id: 'Employee' });
export type Employee = z.infer<typeof employee>;

export const store = documentedObject({
  /** The store's id: the `storeId` of store-scoped calls. */
  storeId: shortId,
  /** The store's name. */
  name: partnerName,
  /** The store's CNPJ, 14 characters, no mask. */
  cnpj,
  /** The store's address. */
  address,
}).meta({ id: 'Store' });
export type Store = z.infer<typeof store>;

export const plan = documentedObject({
  /** The plan's id: the `planId` of products and of an authorization. */
  planId: shortId,
  /** The plan's name. */
  name: partnerName,
  /** What the plan costs a month. */
  monthlyPrice: money,
}).meta({ id: 'Plan' });
export type Plan = z.infer<typeof plan>;

/** `SMARTPHONE` or `ACCESSORY` in the catalog; carts use further values, so any string is read. */
export const productType = openValues<'SMARTPHONE' | 'ACCESSORY' | 'CASE' | 'SCREEN_PROTECTOR'>(
  text.min(1).max(64),
);
export type ProductType = z.infer<typeof productType>;

const productFields = {
  /** The product's SKU, at most 64 characters: the color is not part of it. */
  sku: shortId,
  /** `SMARTPHONE` or `ACCESSORY` in the catalog; carts also use `CASE`, `SCREEN_PROTECTOR` and others. */
  productType,
  /** The product's name. */
  name: partnerName,
  /** The brand. */
  brand: partnerShort.optional(),
  /** The model. */
  model: partnerShort.optional(),
  /** A longer description. */
  description: partnerDescription.optional(),
  /** Capacity with its unit (`128GB`). */
  storage: partnerShort.optional(),
  /** The product's price. */
  price: money,
  /** Units in stock now (minimum 0): sent by the barcode lookup, left out of the synchronized list. */
  stock: z.number().int().min(0).optional(),
};

/** A catalog product. The synchronized list omits stock by design; the barcode lookup includes it. */
export const product = documentedObject(productFields).meta({ id: 'Product' });
export type Product = z.infer<typeof product>;

export const productWithStock = documentedObject({
  ...productFields,
  /** Units in stock now, minimum 0. */
  stock: z.number().int().min(0),
}).meta({ id: 'ProductWithStock' });
export type ProductWithStock = z.infer<typeof productWithStock>;

export const serviceType = z.enum(['EXTENDED_WARRANTY', 'INSURANCE', 'PROTECTION']);
export type ServiceType = z.infer<typeof serviceType>;

export const service = documentedObject({
  /** The service's id: the `serviceId` of a cart's services. */
  serviceId: shortId,
  /** The service's name. */
  name: partnerName,
  /** A longer description. */
  description: partnerDescription.optional(),
  /** `EXTENDED_WARRANTY`, `INSURANCE` or `PROTECTION`. */
  type: serviceType,
  /** The service's price. */
  price: money,
}).meta({ id: 'Service' });
export type Service = z.infer<typeof service>;

// Real time ----------------------------------------------------------------------------------------

/**
 * `GET /v1/stock` (shape not shown by the spec; settled in DESIGN.md 8): the count is named `stock`, like
 * Product's. `partnerStockLevel` also reads a partner's `quantity` as `stock`.
 */
export const stockLevel = documentedObject({
  /** The SKU counted. */
  sku: shortId,
  /** The store counted. */
  storeId: shortId,
  /** Units in stock now (a partner's `quantity` is read as this). */
  stock: z.number().int().min(0),
  /** When the count was taken (ISO 8601, UTC). */
  updatedAt: utcDateTime,
  /** v1.1, optional (SR-9): units of `stock` held by active reservations; available = stock - reserved. */
  reserved: z.number().int().min(0).optional(),
}).meta({ id: 'StockLevel' });
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

export const imeiValidation = documentedObject({
  /** Whether the IMEI is valid and known to the POS. */
  imeiValid: z.boolean(),
  /** Whether the device is in this store's stock (not a reservation, R-05). */
  inStock: z.boolean(),
  /** The SKU the device resolves to. */
  sku: z.string().optional(),
  /** The product's name. */
  name: partnerName.optional(),
  /** The brand. */
  brand: partnerShort.optional(),
  /** The model. */
  model: partnerShort.optional(),
  /** A longer description. */
  description: partnerDescription.optional(),
  /** Capacity with its unit (`128GB`). */
  storage: partnerShort.optional(),
  /** Shown to the seller untranslated: the reason of a refusal in operational language. */
  message: z.string().optional(),
  /** Not in the spec's field list; read when a POS sends it, to tell a device held by another store. */
  storeId: shortId.optional(),
}).meta({ id: 'ImeiValidation' });
export type ImeiValidation = z.infer<typeof imeiValidation>;

export const saleStatusValue = z.enum(['PENDING', 'ACTIVE', 'CANCELLED']);
export type SaleStatusValue = z.infer<typeof saleStatusValue>;

export const saleStatus = documentedObject({
  /** `PENDING` (not invoiced), `ACTIVE` (invoiced) or `CANCELLED` (cancelled, stock released). */
  status: saleStatusValue,
  /** The POS's number of the sale. */
  saleNumber: z.string(),
  /** The POS's order number. */
  orderNumber: z.string().optional(),
  /** The invoice (NF-e) number, once invoiced. */
  invoiceNumber: z.string().optional(),
  /** The 44-character NF-e access key, to find the invoice on the tax authority's portal. */
  nfeAccessKey: nfeAccessKey.optional(),
  /** When the sale was made (ISO 8601, UTC). */
  saleDate: utcDateTime,
  /** When the sale was cancelled; `null` or absent if it was not. */
  cancellationDate: utcDateTime.nullable().optional(),
  /** Free text about the sale. */
  message: z.string().optional(),
  /** Not in the spec's field list; read when a POS sends it, to match a sale to a device. */
  imei: imei.optional(),
}).meta({ id: 'SaleStatus' });
export type SaleStatus = z.infer<typeof saleStatus>;

/** Sale search body: exactly one of `taxId` or `imei`; the CPF never travels in a URL. */
export const saleSearchRequest = z
  .union([
    documentedStrictObject({
      /** The buyer's CPF, 11 digits, no mask (in the body, never a URL). */
      taxId: cpf,
    }),
    documentedStrictObject({
      /** The device's IMEI, 15 digits. */
      imei,
    }),
  ])
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

/** The paging of a list answer. */
const pageOf = {
  /** Where this page stands in the whole list: `page`, `pageSize`, `totalItems`, `totalPages`. */
  pagination,
};
export const employeesPage = documentedObject({
  /** The active employees on this page (one dismissed simply stops appearing). */
  employees: z.array(employee),
  ...pageOf,
});
export type EmployeesPage = z.infer<typeof employeesPage>;
export const storesPage = documentedObject({
  /** The stores on this page. */
  stores: z.array(store),
  ...pageOf,
});
export type StoresPage = z.infer<typeof storesPage>;
export const plansList = documentedObject({
  /** The store's carrier plans. */
  plans: z.array(plan),
});
export type PlansList = z.infer<typeof plansList>;
export const productsPage = documentedObject({
  /** The smartphones eligible for the plan on this page, without stock. */
  products: z.array(product),
  ...pageOf,
});
export type ProductsPage = z.infer<typeof productsPage>;
export const servicesList = documentedObject({
  /** The warranties, insurance and protections the SKU takes. */
  services: z.array(service),
});
export type ServicesList = z.infer<typeof servicesList>;
export const saleSearchResult = documentedObject({
  /** The sales found for the CPF or IMEI. */
  sales: z.array(saleStatus),
});
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
    documentedStrictObject({
      /** The smartphone to hold, by IMEI. */
      imei,
      /** Seconds the hold lasts, 900 to 7200 (default 1800). */
      ttlSeconds: ttlSeconds.optional(),
    }),
    documentedStrictObject({
      /** The accessory SKU to hold. */
      sku: shortId,
      /** Units to hold, 1 to 99. */
      quantity: z.number().int().min(1).max(99),
      /** Seconds the hold lasts, 900 to 7200 (default 1800). */
      ttlSeconds: ttlSeconds.optional(),
    }),
  ])
  .meta({ id: 'StockReservationRequest' });
export type ReservationRequest = z.infer<typeof reservationRequest>;

/** Extend: the hold lasts `ttlSeconds` from now (never less than it already had). */
export const reservationExtendRequest = documentedStrictObject({
  /** Seconds from now the hold lasts, 900 to 7200 (default 1800). */
  ttlSeconds: ttlSeconds.optional(),
}).meta({ id: 'StockReservationExtendRequest' });
export type ReservationExtendRequest = z.infer<typeof reservationExtendRequest>;

export const stockReservation = documentedObject({
  /** The hold's id. */
  reservationId: shortId,
  /** The store holding the stock. */
  storeId: shortId,
  /** `ACTIVE` holds stock; `RELEASED`, `EXPIRED` and `COMMITTED` are final. */
  state: reservationState,
  /** The SKU held. */
  sku: shortId,
  /** Units held (1 for a smartphone). */
  quantity: z.number().int().min(1),
  /** Present on a smartphone hold. */
  imei: imei.optional(),
  /** When the hold was made. */
  createdAt: utcDateTime,
  /** When an `ACTIVE` hold becomes `EXPIRED`; kept as it was once the hold ends. */
  expiresAt: utcDateTime,
  /** When the hold left `ACTIVE` (released, expired or committed). */
  endedAt: utcDateTime.optional(),
}).meta({ id: 'StockReservation' });
export type StockReservation = z.infer<typeof stockReservation>;

export const reservationQuery = z.object({ storeId: shortId });
