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
import { buildOpenApiDocument } from './build-document.js';
import { conventions, rateLimit } from './conventions.js';
import type { OpenApiDocument } from './document.js';
import {
  imeiExamples,
  saleSearchExamples,
  saleSearchResultExamples,
  sellerSessionExamples,
  sellerSessionResultExamples,
  stockExamples,
} from './examples.js';
import type { OperationDefinition } from './operation.js';
import { tokenOperation } from './token-operation.js';

/** How often the financing service calls each endpoint (spec section 4's "Sync" column). */
const sync = (when: 'on expiry' | 'real time' | 'once a day') => ({ 'x-sync': when });

/** a store-scoped call needs the `storeId` of the seller session, and a store the caller knows. */
const storeScoped: ErrorCode[] = ['store_context_required', 'store_not_found'];

const catalogRead = (
  path: string,
  operationId: string,
  summary: string,
  description: string,
  query: OperationDefinition['query'],
  response: OperationDefinition['response'],
  errors: ErrorCode[],
): OperationDefinition => ({
  method: 'get',
  path,
  operationId,
  summary,
  description,
  tag: 'Catalog',
  scopes: ['catalog:read'],
  query,
  response,
  errors,
  extensions: { ...sync('once a day'), ...rateLimit(600) },
});

const operations = (): OperationDefinition[] => [
  {
    ...tokenOperation('Scopes: `catalog:read`, `inventory:read`, `sales:read`; request only those in use.', [
      'catalog:read',
      'inventory:read',
      'sales:read',
    ]),
    extensions: { ...sync('on expiry'), ...rateLimit(60) },
  },
  {
    method: 'post',
    path: '/v1/sellers/session',
    operationId: 'createSellerSession',
    summary: 'Open a seller session and get the store context',
    description:
      'Two request shapes exist: (a) `cpf` and `password`, answered with `data` = SellerAuthResult; (b) ' +
      '`username` and `password`, answered with `data` = SellerSession directly. A failed login is still ' +
      'HTTP 200: `authorized: false`, `status` `INVALID_PASSWORD` or `USER_NOT_FOUND`, `session: null`, with the ' +
      'same generic message for both. A 401 here means the system token is bad, never the seller credentials. ' +
      'The password is write-only: never logged, never kept. The `storeId` returned is required on every ' +
      'catalog, stock and sale call (R-01).',
    tag: 'Seller session',
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
    extensions: { ...sync('real time'), ...rateLimit(600) },
  },
  catalogRead(
    '/v1/employees',
    'listEmployees',
    'List active employees',
    'Only active employees are listed: a dismissed one simply stops appearing (no event, no flag).',
    employeesQuery,
    {
      schema: employeesPage,
      envelope: true,
      name: 'EmployeesResponse',
      description: 'One page of employees.',
    },
    [],
  ),
  catalogRead(
    '/v1/stores',
    'listStores',
    'List registered stores',
    'The stores of this partner, for the daily sync; the seller session returns the same store data.',
    storesQuery,
    { schema: storesPage, envelope: true, name: 'StoresResponse', description: 'One page of stores.' },
    [],
  ),
  catalogRead(
    '/v1/plans',
    'listPlans',
    'List the carrier plans of a store',
    'The carrier plans a store sells.',
    plansQuery,
    { schema: plansList, envelope: true, name: 'PlansResponse', description: 'The plans of the store.' },
    storeScoped,
  ),
  catalogRead(
    '/v1/products',
    'listProducts',
    'List the smartphones eligible for a plan',
    'Without stock, by design: stock is read in real time. Color is never a catalog attribute (R-03).',
    productsQuery,
    { schema: productsPage, envelope: true, name: 'ProductsResponse', description: 'One page of products.' },
    [...storeScoped, 'resource_not_found'],
  ),
  {
    ...catalogRead(
      '/v1/products/barcode',
      'getProductByBarcode',
      'Find a product by barcode, with current stock',
      'Smartphones and any accessory (case, screen protector, cable, charger, headphones). Warranties and ' +
        'insurance have no barcode: see `GET /v1/services` (R-04).',
      barcodeQuery,
      {
        schema: productWithStock,
        envelope: true,
        name: 'ProductByBarcodeResponse',
        description: 'The product, with its current stock.',
      },
      [...storeScoped, 'resource_not_found'],
    ),
    tag: 'Real time',
    extensions: { ...sync('real time'), ...rateLimit(600) },
  },
  catalogRead(
    '/v1/services',
    'listServices',
    'List the warranties, insurance and protections of a smartphone',
    '`sku` is the smartphone SKU the services attach to.',
    servicesQuery,
    {
      schema: servicesList,
      envelope: true,
      name: 'ServicesResponse',
      description: 'The services of the SKU.',
    },
    [...storeScoped, 'resource_not_found'],
  ),
  {
    method: 'get',
    path: '/v1/stock',
    operationId: 'getStock',
    summary: 'Read the current stock of one SKU',
    description:
      'Real time. The spec does not show this shape; ours: query `storeId` and `sku`, `data` = ' +
      '`{ sku, storeId, quantity, updatedAt }`.',
    tag: 'Real time',
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
    extensions: { ...sync('real time'), ...rateLimit(600) },
  },
  {
    method: 'get',
    path: '/v1/imei/validate',
    operationId: 'validateImei',
    summary: 'Resolve an IMEI to a product and its availability',
    description:
      'Non-binding: nothing is reserved, guaranteed or decided (R-05). `message` is shown to the seller ' +
      'untranslated and gives the reason of a refusal in operational language.',
    tag: 'Real time',
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
    extensions: { ...sync('real time'), ...rateLimit(600) },
  },
  {
    method: 'post',
    path: '/v1/sales/search',
    operationId: 'searchSales',
    summary: 'Find sales and their billing or cancellation status',
    description:
      'Exactly one of `taxId` (the customer CPF) or `imei`; a POST so the CPF never travels in a URL. The ' +
      'financing service polls it until a sale is `ACTIVE` when the POS does not confirm, and reads it to ' +
      'verify a cancellation before cancelling the financing (R-08).',
    tag: 'Real time',
    scopes: ['sales:read'],
    body: {
      schema: saleSearchRequest,
      mediaType: 'application/json',
      examples: saleSearchExamples,
    },
    response: {
      schema: saleSearchResult,
      envelope: true,
      name: 'SaleSearchResponse',
      description: 'The sales found.',
      examples: saleSearchResultExamples,
    },
    errors: ['resource_not_found'],
    extensions: { ...sync('real time'), ...rateLimit(600) },
  },
];

/** The OpenAPI 3.1 document of the Partner POS API, generated from the zod schemas and the error catalog. */
export function buildPartnerPosOpenApi(): OpenApiDocument {
  return buildOpenApiDocument({
    title: 'Partner POS API',
    summary: "Implemented by the retailer's point of sale, called by the financing service.",
    description:
      'The financing service reads the partner POS through this API: system token, seller session and ' +
      'store context, the catalog it synchronizes once a day (employees, stores, plans, products, services), ' +
      'and what it needs in real time (barcode, stock, IMEI, sale search).\n' +
      conventions,
    server: { default: 'https://pos.example.com', description: 'The partner POS (host root).' },
    scopes: ['catalog:read', 'inventory:read', 'sales:read'],
    tags: [
      { name: 'System token', description: 'The application token (system layer).' },
      { name: 'Seller session', description: 'The seller and their store (seller layer).' },
      { name: 'Catalog', description: 'Synchronized about once a day, never called per transaction.' },
      { name: 'Real time', description: 'Called during a sale.' },
    ],
    operations: operations(),
  });
}
