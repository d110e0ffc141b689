// Public entry point of @fin/pos-client: read a partner POS (seller login, catalog sync, real-time lookups).
export type {
  ApiPromise,
  ClientEventListener,
  ClientEventName,
  ClientEvents,
  DataAndResponse,
  RequestEvent,
  ResponseEvent,
} from '@fin/core/transport';
export type { CallOptions } from './client-context.js';
export type { Only } from './exclusive.js';
export {
  DEFAULT_MAX_PAGES,
  type ListOptions,
  MAX_PAGE_SIZE,
  type Page,
  PagedList,
} from './pagination/paged-list.js';
export {
  type PaginationInconsistency,
  PaginationInconsistencyError,
} from './pagination/pagination-inconsistency-error.js';
export { PARTNER_SCOPES, type PartnerScope, PosClient, type PosClientOptions } from './pos-client.js';
export { imeiRefusalFallbacks } from './resources/imei-refusal-message.js';
export type { EmployeesResource, StoresResource } from './resources/partner-lists.js';
export type { SaleSearchCriteria, SalesResource } from './resources/sales.js';
export type {
  ReservationOutcome,
  ReservationWriteOptions,
  StockReservations,
} from './resources/stock-reservations.js';
export type {
  StoreImei,
  StorePlans,
  StoreProducts,
  StoreScope,
  StoreServices,
  StoreStock,
} from './resources/store-scope.js';
export { type SellerIdTokenClaims, sellerIdTokenClaims } from './sellers/login/id-token-session.js';
export { DEFAULT_LOGIN_TTL_MS, type SellerLoginTransaction } from './sellers/login/login-transaction.js';
export {
  type ClientPrivateKey,
  ID_TOKEN_ALGORITHMS,
  type PosClientOidcOptions,
} from './sellers/login/relying-party.js';
export type { BeganLogin, BeginLoginOptions } from './sellers/login/seller-login.js';
export {
  type IdTokenFailure,
  isSellerLoginError,
  type ProviderFailure,
  SellerLoginError,
  type SellerLoginErrorCode,
} from './sellers/login/seller-login-error.js';
export type { SellerLoginResult, SellerSession } from './sellers/seller-login-result.js';
export type { SellerCredentials, SellersResource } from './sellers/sellers-resource.js';
export { type CatalogDiff, diffCatalog, type RecordDiff } from './sync/catalog-diff.js';
export type { CatalogSnapshot, StorePlan, StoreProduct, StoreService } from './sync/catalog-snapshot.js';
export {
  type CatalogSync,
  type RefusedRecord,
  type SyncCatalogOptions,
  type SyncProgress,
  type SyncResource,
  type SyncWarning,
  syncCatalog,
} from './sync/sync-catalog.js';
