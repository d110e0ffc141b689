// The Partner POS API (spec section 4): implemented by the retailer's POS, called by the financing service.
import type { ErrorCode } from '../errors/catalog.js';
import {
  barcodeQuery,
  employeesPage,
  employeesQuery,
  imeiQuery,
  imeiValidation,
  plansList,
  plansQuery,
  productsPage,
  productsQuery,
  productWithStock,
  saleSearchRequest,
  saleSearchResult,
  sellerLoginRequest,
  sellerSessionResponse,
  servicesList,
  servicesQuery,
  stockLevel,
  stockQuery,
  storesPage,
  storesQuery,
} from '../schemas/partner-pos.js';
import { defineEndpoint } from './endpoint.js';
import {
  barcodeExamples,
  employeesExamples,
  imeiExamples,
  plansExamples,
  productsExamples,
  saleSearchExamples,
  saleSearchResultExamples,
  sellerSessionExamples,
  sellerSessionResultExamples,
  servicesExamples,
  stockExamples,
  storesExamples,
} from './examples.js';
import { stockReservationEndpoints } from './stock-reservations.js';
import { tokenEndpoint } from './token.js';

/** How often the financing service calls each endpoint (spec section 4's "Sync" column). */
const sync = (when: 'on expiry' | 'real time' | 'once a day') => ({ 'x-sync': when });

/** a store-scoped call needs the `storeId` of the seller session, and a store the caller knows. */
const storeScoped = ['store_context_required', 'store_not_found'] as const satisfies readonly ErrorCode[];

/** The catalog the financing service synchronizes once a day. */
const catalog = { method: 'GET', rate: 'read', scopes: ['catalog:read'] } as const;
const catalogDocs = { tag: 'Catalog', extensions: sync('once a day') } as const;

/** The calls a sale makes while the customer waits. */
const realTime = { tag: 'Real time', extensions: sync('real time') } as const;

export const partnerPosEndpoints = {
  issueToken: tokenEndpoint(
    'Scopes: `catalog:read`, `inventory:read`, `sales:read`; request only those in use.',
    ['catalog:read', 'inventory:read', 'sales:read'],
    sync('on expiry'),
  ),
  createSellerSession: defineEndpoint({
    method: 'POST',
    path: '/v1/sellers/session',
    rate: 'read',
    scopes: [],
    body: {
      schema: sellerLoginRequest,
      name: 'SellerLoginRequest',
      mediaType: 'application/json',
      examples: sellerSessionExamples,
    },
    response: {
      schema: sellerSessionResponse,
      envelope: true,
      name: 'SellerSessionResponse',
      description: 'The login result (shape a) or the session (shape b).',
      examples: sellerSessionResultExamples,
    },
    errors: [],
    docs: {
      summary: 'Open a seller session and get the store context',
      description:
        'Two request shapes exist: (a) `cpf` and `password`, answered with `data` = SellerAuthResult; (b) ' +
        '`username` and `password`, answered with `data` = SellerSession directly. A failed login is still ' +
        'HTTP 200: `authorized: false`, `status` `INVALID_PASSWORD` or `USER_NOT_FOUND`, `session: null`, with the ' +
        'same generic message for both. A 401 here means the system token is bad, never the seller credentials. ' +
        'The password is write-only: never logged, never kept. The `storeId` returned is required on every ' +
        'catalog, stock and sale call (R-01).\n\n' +
        '**Deprecated by v2.0** (SL-9): credential passthrough is replaced by the seller login at the partner ' +
        "POS's OpenID Provider (the `sellerLogin` security scheme). A partner keeps this operation for its v1 " +
        'callers at least 12 months after it announces v2.0 (spec 9.4); its removal is the `/v2/` path ' +
        "version. The financing service migrates per partner: once the partner's provider is up, " +
        '`pos.sellers.beginLogin`/`completeLogin` instead of `pos.sellers.login`, the same session fields ' +
        '(docs/seller-login.md, "Migration").',
      tag: 'Seller session',
      deprecated: true,
      extensions: sync('real time'),
    },
  }),
  listEmployees: defineEndpoint({
    ...catalog,
    path: '/v1/employees',
    query: employeesQuery,
    response: {
      schema: employeesPage,
      envelope: true,
      name: 'EmployeesResponse',
      examples: employeesExamples,
      description: 'One page of employees.',
    },
    errors: [],
    docs: {
      summary: 'List active employees',
      description:
        'Only active employees are listed: a dismissed one simply stops appearing (no event, no flag).',
      ...catalogDocs,
    },
  }),
  listStores: defineEndpoint({
    ...catalog,
    path: '/v1/stores',
    query: storesQuery,
    response: {
      schema: storesPage,
      envelope: true,
      name: 'StoresResponse',
      examples: storesExamples,
      description: 'One page of stores.',
    },
    errors: [],
    docs: {
      summary: 'List registered stores',
      description:
        'The stores of this partner, for the daily sync; the seller session returns the same store data.',
      ...catalogDocs,
    },
  }),
  listPlans: defineEndpoint({
    ...catalog,
    path: '/v1/plans',
    query: plansQuery,
    response: {
      schema: plansList,
      envelope: true,
      name: 'PlansResponse',
      examples: plansExamples,
      description: 'The plans of the store.',
    },
    errors: storeScoped,
    docs: {
      summary: 'List the carrier plans of a store',
      description: 'The carrier plans a store sells.',
      ...catalogDocs,
    },
  }),
  listProducts: defineEndpoint({
    ...catalog,
    path: '/v1/products',
    query: productsQuery,
    response: {
      schema: productsPage,
      envelope: true,
      name: 'ProductsResponse',
      examples: productsExamples,
      description: 'One page of products.',
    },
    errors: [...storeScoped, 'resource_not_found'],
    docs: {
      summary: 'List the smartphones eligible for a plan',
      description:
        'Without stock, by design: stock is read in real time. Color is never a catalog attribute (R-03).',
      ...catalogDocs,
    },
  }),
  getProductByBarcode: defineEndpoint({
    ...catalog,
    path: '/v1/products/barcode',
    query: barcodeQuery,
    response: {
      schema: productWithStock,
      envelope: true,
      name: 'ProductByBarcodeResponse',
      examples: barcodeExamples,
      description: 'The product, with its current stock.',
    },
    errors: [...storeScoped, 'resource_not_found'],
    docs: {
      summary: 'Find a product by barcode, with current stock',
      description:
        'Smartphones and any accessory (case, screen protector, cable, charger, headphones). Warranties and ' +
        'insurance have no barcode: see `GET /v1/services` (R-04).',
      ...realTime,
    },
  }),
  listServices: defineEndpoint({
    ...catalog,
    path: '/v1/services',
    query: servicesQuery,
    response: {
      schema: servicesList,
      envelope: true,
      name: 'ServicesResponse',
      examples: servicesExamples,
      description: 'The services of the SKU.',
    },
    errors: [...storeScoped, 'resource_not_found'],
    docs: {
      summary: 'List the warranties, insurance and protections of a smartphone',
      description: '`sku` is the smartphone SKU the services attach to.',
      ...catalogDocs,
    },
  }),
  getStock: defineEndpoint({
    method: 'GET',
    path: '/v1/stock',
    rate: 'read',
    scopes: ['inventory:read'],
    query: stockQuery,
    response: {
      schema: stockLevel,
      envelope: true,
      name: 'StockResponse',
      description: 'The stock of the SKU in the store.',
      examples: stockExamples,
    },
    errors: [...storeScoped, 'resource_not_found'],
    docs: {
      summary: 'Read the current stock of one SKU',
      description:
        'Real time. The spec does not show this shape; ours: query `storeId` and `sku`, `data` = ' +
        '`{ sku, storeId, stock, updatedAt }`, the count named `stock` as on Product. A partner that ' +
        'names it `quantity` is read too (`@fin/pos-client` turns it into `stock`).',
      ...realTime,
    },
  }),
  validateImei: defineEndpoint({
    method: 'GET',
    path: '/v1/imei/validate',
    rate: 'read',
    scopes: ['inventory:read'],
    query: imeiQuery,
    response: {
      schema: imeiValidation,
      envelope: true,
      name: 'ImeiValidationResponse',
      description: 'What the IMEI is and whether the store holds it.',
      examples: imeiExamples,
    },
    errors: storeScoped,
    docs: {
      summary: 'Resolve an IMEI to a product and its availability',
      description:
        'Non-binding: nothing is reserved, guaranteed or decided (R-05). `message` is shown to the seller ' +
        'untranslated and gives the reason of a refusal in operational language.',
      ...realTime,
    },
  }),
  searchSales: defineEndpoint({
    method: 'POST',
    path: '/v1/sales/search',
    rate: 'read',
    scopes: ['sales:read'],
    body: { schema: saleSearchRequest, mediaType: 'application/json', examples: saleSearchExamples },
    response: {
      schema: saleSearchResult,
      envelope: true,
      name: 'SaleSearchResponse',
      description: 'The sales found.',
      examples: saleSearchResultExamples,
    },
    errors: ['resource_not_found'],
    docs: {
      summary: 'Find sales and their billing or cancellation status',
      description:
        'Exactly one of `taxId` (the customer CPF) or `imei`; a POST so the CPF never travels in a URL. The ' +
        'financing service polls it until a sale is `ACTIVE` when the POS does not confirm, and reads it to ' +
        'verify a cancellation before cancelling the financing (R-08). No sale found is a 404; the spec names ' +
        'no code for it, so readers take any 404 of this endpoint as an empty result (we answer ' +
        '`resource_not_found`).',
      ...realTime,
    },
  }),
  ...stockReservationEndpoints,
};

export type PartnerPosEndpoints = typeof partnerPosEndpoints;
