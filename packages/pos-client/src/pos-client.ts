// PosClient: the financing team's reader of one partner POS, a thin resource layer on the shared transport.
import { type Scope, systemClock } from '@fin/core';
import {
  type ClientEventListener,
  type ClientEventName,
  createHttpClient,
  type HttpClientOptions,
} from '@fin/core/transport';
import { type ClientContext, createClientContext } from './client-context.js';
import {
  type EmployeesResource,
  employeesResource,
  type StoresResource,
  storesResource,
} from './resources/partner-lists.js';
import { type SalesResource, salesResource } from './resources/sales.js';
import { createStoreScope, type StoreScope } from './resources/store-scope.js';
import { sdkInfo } from './sdk-info.js';
import { createRelyingParty, type PosClientOidcOptions } from './sellers/login/relying-party.js';
import { type SellerLogin, sellerLogin } from './sellers/login/seller-login.js';
import { type SellersResource, sellersResource } from './sellers/sellers-resource.js';

/** The scopes of the Partner POS API (spec section 5). */
export type PartnerScope = Extract<Scope, 'catalog:read' | 'inventory:read' | 'sales:read'>;

export const PARTNER_SCOPES: readonly PartnerScope[] = Object.freeze([
  'catalog:read',
  'inventory:read',
  'sales:read',
]);

/**
 * `baseUrl` is the partner's host root (paths carry `/v1`). Everything else is the transport's:
 * `fetch`, `timeoutMs` (per attempt, default 10 s), `maxRetries` (default 2), `rateLimit` (default the
 * spec's 600 reads and 60 tokens a minute per client_id; `false` turns pacing off), `logger` (entries
 * pass through `redact`), `deadlineMs`, `backoff`, `clock`, `random`, `tokenPath`, `appInfo` (your app in
 * the `User-Agent`), `defaultHeaders`. Every result carries its answer's metadata as `lastResponse`.
 */
export interface PosClientOptions extends Omit<HttpClientOptions, 'scopes'> {
  /** Only the scopes in use should be requested; default all three (`catalog:read inventory:read sales:read`). */
  scopes?: readonly PartnerScope[];
  /** Spec v2.0: seller login at the partner's OpenID Provider (`pos.sellers.beginLogin` / `completeLogin`). */
  oidc?: PosClientOidcOptions;
}

/** The relying party of `options.oidc`, or none. */
function sellerLoginOf(options: PosClientOptions, context: ClientContext): SellerLogin | undefined {
  if (!options.oidc) return undefined;
  const rp = createRelyingParty(options.oidc, {
    clientId: options.clientId,
    clock: options.clock ?? systemClock,
    ...(options.tls && { tls: options.tls }),
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  });
  return sellerLogin(
    context,
    rp,
    options.oidc.clientAuth === 'tls_client_auth' ? 'tls_client_auth' : 'private_key_jwt',
  );
}

export class PosClient {
  readonly sellers: SellersResource;
  readonly employees: EmployeesResource;
  readonly stores: StoresResource;
  readonly sales: SalesResource;
  readonly #context: ReturnType<typeof createClientContext>;

  constructor(options: PosClientOptions) {
    const http = createHttpClient({ ...options, scopes: options.scopes ?? PARTNER_SCOPES }, sdkInfo);
    this.#context = createClientContext(http, options.logger);
    this.sellers = sellersResource(this.#context, sellerLoginOf(options, this.#context));
    this.employees = employeesResource(this.#context);
    this.stores = storesResource(this.#context);
    this.sales = salesResource(this.#context);
  }

  /**
   * Tells `listener` of every request this client sends (`'request'`, as it leaves) or has answered
   * (`'response'`: status, elapsed ms): method, route template, request and correlation ids, attempt. Never
   * a body, header, secret, CPF or IMEI. A listener that throws is logged and the call goes on.
   */
  on<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): this {
    this.#context.http.on(name, listener);
    return this;
  }

  /** Removes a listener added with `on`. */
  off<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): this {
    this.#context.http.off(name, listener);
    return this;
  }

  /**
   * the calls of one store (plans, products, barcode, services, stock, IMEI). Throws at once,
   * before any request, when `storeId` is empty (`store_context_required`) or over 64 characters.
   */
  store(storeId: string): StoreScope {
    return createStoreScope(this.#context, storeId);
  }
}
