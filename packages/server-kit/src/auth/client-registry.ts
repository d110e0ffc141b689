// The registered API clients: secrets kept only as keyed digests and compared in constant time.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MutualTls } from '@fin/core/transport';
import type { ClientRegistration, ClientRegistry, RegisteredClient } from '../deps/clients.js';
import { normalizeThumbprint } from '../http/certificate-thumbprint.js';
import { checkSubscriptions } from '../webhooks/subscriptions.js';

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
