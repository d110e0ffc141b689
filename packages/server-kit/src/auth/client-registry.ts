// The registered API clients: secrets kept only as keyed digests and compared in constant time.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Scope } from '@fin/core';
import type { SaleSearch } from '../ports/sale-search.js';
import { checkSubscriptions, type WebhookSubscription } from '../webhooks/subscriptions.js';

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
  /** The environment the credential belongs to; default the service's own. */
  environment?: string;
  /** Contract-status webhooks (spec v1.1) to this partner's receivers: `[{ url, secrets, events? }]`. */
  webhooks?: readonly WebhookSubscription[];
}

export interface RegisteredClient {
  clientId: string;
  scopes: ReadonlySet<string>;
  storeIds: ReadonlySet<string>;
  saleSearch: SaleSearch | undefined;
  environment: string;
  webhooks: readonly WebhookSubscription[];
}

export interface ClientRegistry {
  get(clientId: string): RegisteredClient | undefined;
  /** The client when `clientSecret` is its secret, in constant time whether or not the client exists. */
  authenticate(clientId: string, clientSecret: string): RegisteredClient | undefined;
  /** Whether some registered client owns `storeId`. */
  ownsStore(storeId: string): boolean;
}

export function createClientRegistry(
  clients: readonly ClientRegistration[],
  environment: string,
): ClientRegistry {
  // A key per service instance: the digests are useless outside this process.
  const key = randomBytes(32);
  const digest = (secret: string) => createHmac('sha256', key).update(secret, 'utf8').digest();
  const unknownDigest = digest(randomBytes(32).toString('hex'));
  const byId = new Map<string, { client: RegisteredClient; secretDigest: Buffer }>();
  for (const client of clients) {
    if (!client.clientId || !client.clientSecret) {
      throw new TypeError('createFinancingService: every client needs a clientId and a clientSecret');
    }
    if (byId.has(client.clientId)) {
      throw new TypeError(`createFinancingService: client ${client.clientId} is registered twice`);
    }
    byId.set(client.clientId, {
      client: {
        clientId: client.clientId,
        scopes: new Set(client.scopes),
        storeIds: new Set(client.storeIds),
        saleSearch: client.saleSearch,
        environment: client.environment ?? environment,
        webhooks: checkSubscriptions(client.clientId, client.webhooks),
      },
      secretDigest: digest(client.clientSecret),
    });
  }
  return {
    get: (clientId) => byId.get(clientId)?.client,
    ownsStore: (storeId) => [...byId.values()].some(({ client }) => client.storeIds.has(storeId)),
    authenticate(clientId, clientSecret) {
      const entry = byId.get(clientId);
      const matches = timingSafeEqual(digest(clientSecret), entry?.secretDigest ?? unknownDigest);
      return entry && matches ? entry.client : undefined;
    },
  };
}
