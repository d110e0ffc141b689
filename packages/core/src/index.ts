// Public entry point of @fin/core: what SDK users need (money, identifiers, schemas, errors, redact, Clock, Logger,
// the endpoint registry). Build-time and transport pieces have their own entry points: `@fin/core/openapi`, `@fin/core/transport`.
export * from './clock/index.js';
export * as endpoints from './endpoints/index.js';
export * from './errors/index.js';
export * as cep from './identifiers/cep.js';
export * as cnpj from './identifiers/cnpj.js';
export * as cpf from './identifiers/cpf.js';
export * as imei from './identifiers/imei.js';
export * as nfeKey from './identifiers/nfe-key.js';
export { exceedsJsonDepth, jsonDepthIssue, MAX_JSON_DEPTH } from './json/nesting-depth.js';
export type * from './logger/index.js';
export * as money from './money/index.js';
export * from './redact/index.js';
// The schema types by name: `export type *` would also list every zod schema as a type-only name, which
// autocompletes at the root and then fails as a value (TS1362); the schemas are values of `schemas`.
export type {
  Address,
  AuthorizationState,
  AuthorizationStatus,
  AuthorizeRequest,
  AuthorizeResult,
  CancellationNotice,
  CancellationVerification,
  CancelReason,
  CancelRequest,
  CancelResult,
  CartItem,
  CartService,
  CartTotals,
  ConfirmRequest,
  ConfirmResult,
  Employee,
  EmployeesPage,
  Envelope,
  ErrorEnvelope,
  ErrorObject,
  ImeiValidation,
  Installment,
  Money,
  PageQuery,
  Pagination,
  Plan,
  PlansList,
  Product,
  ProductsPage,
  ProductWithStock,
  ProposalReuse,
  ReservationExtendRequest,
  ReservationRequest,
  ReservationState,
  SaleSearchRequest,
  SaleSearchResult,
  SaleStatus,
  SaleStatusValue,
  Scope,
  SellerAuthResult,
  SellerAuthStatus,
  SellerLoginRequest,
  SellerRole,
  SellerSessionFlat,
  SellerSessionResponse,
  SellerSessionWrapped,
  Service,
  ServicesList,
  ServiceType,
  StockLevel,
  StockReservation,
  Store,
  StoresPage,
  TokenErrorResponse,
  TokenRequest,
  TokenRequestBasic,
  TokenResponse,
} from './schemas/index.js';
export * as schemas from './schemas/index.js';
export { MAX_SALE_AMOUNT_CENTS } from './schemas/primitives.js';
export * from './webhooks/index.js';
