// The registered API clients: secrets kept only as keyed digests and compared in constant time.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Scope } from '@fin/core';
import type { MutualTls } from '@fin/core/transport';
import type { SaleSearch } from '../ports/sale-search.js';
import type { StockHolds } from '../ports/stock-holds.js';
import { checkSubscriptions, type WebhookSubscription } from '../webhooks/subscriptions.js';
import { normalizeThumbprint } from './certificate-thumbprint.js';

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

/** Under `mutualTls: 'required'` (decision TLS-13) every client is bound, or the service does not start. */
export function createClientRegistry(
  clients: readonly ClientRegistration[],
  environment: string,
  mutualTls: MutualTls,
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
        stockHolds: client.stockHolds,
        environment: client.environment ?? environment,
        certificates: boundCertificates(client),
        webhooks: checkSubscriptions(client.clientId, client.webhooks),
      },
      secretDigest: digest(client.clientSecret),
    });
    if (mutualTls === 'required' && client.certificate === undefined) {
      throw new TypeError(
        `createFinancingService: mutualTls is 'required' but client ${client.clientId} is not bound to a ` +
          'certificate: give it certificate: { sha256 } (docs/mtls.md)',
      );
    }
  }
  return {
    get: (clientId) => byId.get(clientId)?.client,
    ownsStore: (storeId) => [...byId.values()].some(({ client }) => client.storeIds.has(storeId)),
    holdsFor: (storeId) =>
      [...byId.values()].find(({ client }) => client.storeIds.has(storeId) && client.stockHolds)?.client,
    authenticate(clientId, clientSecret) {
      const entry = byId.get(clientId);
      const matches = timingSafeEqual(digest(clientSecret), entry?.secretDigest ?? unknownDigest);
      return entry && matches ? entry.client : undefined;
    },
  };
}

/** The normalized thumbprints of `certificate.sha256`; a value that is no SHA-256 is refused at start. */
function boundCertificates(client: ClientRegistration): ReadonlySet<string> {
  if (client.certificate === undefined) return new Set();
  const given = client.certificate.sha256;
  const values: readonly string[] = typeof given === 'string' ? [given] : (given ?? []);
  const thumbprints = values.map((value) =>
    typeof value === 'string' ? normalizeThumbprint(value) : undefined,
  );
  if (values.length === 0 || thumbprints.includes(undefined)) {
    throw new TypeError(
      `createFinancingService: client ${client.clientId} certificate.sha256 must be SHA-256 fingerprints ` +
        '(base64url x5t#S256, or the hex of openssl x509 -fingerprint -sha256)',
    );
  }
  return new Set(thumbprints as string[]);
}
