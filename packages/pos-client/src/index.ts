// Public entry point of @fin/pos-client: read a partner POS (seller login, catalog sync, real-time lookups).
// The resources' interfaces are reached from the client (`PosClient['sellers']`); the transport's types are
// `@fin/core/transport`'s.
export type { RequestEvent, ResponseEvent } from '@fin/core/transport';
export type { CallOptions } from './client-context.js';
export { type ListOptions, type Page, PagedList } from './pagination/paged-list.js';
export {
  type PaginationInconsistency,
  PaginationInconsistencyError,
} from './pagination/pagination-inconsistency-error.js';
export { PARTNER_SCOPES, type PartnerScope, PosClient, type PosClientOptions } from './pos-client.js';
export { imeiRefusalFallbacks } from './resources/imei-refusal-message.js';
export type { SaleSearchCriteria } from './resources/sales.js';
export type { ReservationOutcome } from './resources/stock-reservations.js';
export type { StoreScope } from './resources/store-scope.js';
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
export type { SellerCredentials } from './sellers/sellers-resource.js';
export { type CatalogDiff, diffCatalog } from './sync/catalog-diff.js';
export type { CatalogSnapshot, StorePlan, StoreProduct, StoreService } from './sync/catalog-snapshot.js';
export {
  type CatalogSync,
  type RefusedRecord,
  type SyncCatalogOptions,
  type SyncProgress,
  syncCatalog,
} from './sync/sync-catalog.js';
