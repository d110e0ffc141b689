// What a registered API client is: the partner's registration, the checked form the service keeps, and the registry holding them.
import type { Scope } from '@fin/core';
import type { SaleSearch } from '../ports/sale-search.js';
import type { StockHolds } from '../ports/stock-holds.js';
import type { WebhookSubscription } from './webhook-subscription.js';

/** One partner allowed to call the API (`clients` of `createFinancingService`). */
export interface ClientRegistration {
  clientId: string;
  clientSecret: string;
  /** Scopes this client may be granted; the API needs `sales:authorize`. */
  scopes: readonly Scope[];
  /** The stores this partner owns: any other `storeId` is `store_not_found`. */
  storeIds: readonly string[];
  /** The partner POS's sale search: `new PosClient(...).sales` from `@fin/pos-client`. */
  saleSearch?: SaleSearch;
  /** The partner POS's optional stock holds (issue 30): the same `PosClient`; `service.holds` uses them. */
  stockHolds?: StockHolds;
  /** The environment the credential belongs to; default the service's own. */
  environment?: string;
  /**
   * Binds the client to its TLS client certificate (RFC 8705 `tls_client_auth`-style, docs/mtls.md): a token
   * request without a certificate of this SHA-256 is `invalid_client`. `sha256` is the `x5t#S256`
   * (base64url) or openssl's hex fingerprint; a list while a certificate is being rotated.
   */
  certificate?: { sha256: string | readonly string[] };
  /** Contract-status webhooks (spec v1.1) to this partner's receivers: `[{ url, secrets, events? }]`. */
  webhooks?: readonly WebhookSubscription[];
}

export interface RegisteredClient {
  clientId: string;
  scopes: ReadonlySet<string>;
  storeIds: ReadonlySet<string>;
  saleSearch: SaleSearch | undefined;
  stockHolds: StockHolds | undefined;
  environment: string;
  /** The `x5t#S256` of the certificates it must present (empty: not bound). */
  certificates: ReadonlySet<string>;
  webhooks: readonly WebhookSubscription[];
}

export interface ClientRegistry {
  get(clientId: string): RegisteredClient | undefined;
  /** The client when `clientSecret` is its secret, in constant time whether or not the client exists. */
  authenticate(clientId: string, clientSecret: string): RegisteredClient | undefined;
  /** Whether some registered client owns `storeId`. */
  ownsStore(storeId: string): boolean;
  /** The first registered client owning `storeId` that offers stock holds (issue 30). */
  holdsFor(storeId: string): RegisteredClient | undefined;
}
