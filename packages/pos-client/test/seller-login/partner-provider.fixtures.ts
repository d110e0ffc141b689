// The example partner's OpenID Provider on loopback for the seller-login tests: PKI, the two registered clients, the browser's walk.
import { webcrypto } from 'node:crypto';
import {
  loginAtPartnerPage,
  type PartnerOidcProvider,
  type PartnerOidcProviderOptions,
  type SellerAtPage,
  startPartnerOidcProvider,
} from '../../../../examples/partner-pos/src/index.js';
import { makeTestPki, type TestPki } from '../../../../test/support/certificates.js';
import { httpsFetch } from '../../../../test/support/https-fetch.js';
import { PosClient, type PosClientOptions } from '../../src/index.js';

export const REDIRECT_URI = 'https://financing.test/seller-login/callback';
export const MTLS_CLIENT = 'financing-mtls';
export const JWT_CLIENT = 'financing-jwt';

/** The financing service's keys for private_key_jwt (its client assertion) and DPoP, made at test time. */
export interface JwtClientKeys {
  assertion: CryptoKeyPair;
  publicJwk: JsonWebKey & { kid: string };
  dpop: CryptoKeyPair;
}

export async function jwtClientKeys(): Promise<JwtClientKeys> {
  const ec = { name: 'ECDSA', namedCurve: 'P-256' } as const;
  const assertion = (await webcrypto.subtle.generateKey(ec, true, ['sign', 'verify'])) as CryptoKeyPair;
  const dpop = (await webcrypto.subtle.generateKey(ec, false, ['sign', 'verify'])) as CryptoKeyPair;
  const jwk = await webcrypto.subtle.exportKey('jwk', assertion.publicKey);
  return { assertion, dpop, publicJwk: { ...jwk, kid: 'financing-assertion-1', alg: 'ES256', use: 'sig' } };
}

export interface PartnerFixture {
  pki: TestPki;
  keys: JwtClientKeys;
  provider: PartnerOidcProvider;
  /** A PosClient logging sellers in with `tls_client_auth` over mutual TLS. */
  mtlsClient(options?: Partial<PosClientOptions>): PosClient;
  /** A PosClient logging sellers in with `private_key_jwt` and DPoP-bound tokens. */
  jwtClient(options?: Partial<PosClientOptions>): PosClient;
  /** The seller's browser at the partner's page: trusts the CA, presents no certificate. */
  browse(url: string, seller: SellerAtPage): ReturnType<typeof loginAtPartnerPage>;
  close(): Promise<void>;
}

/** Starts a provider with both clients registered; `extra` plays a broken partner (e.g. `idTokenStoreId`). */
export async function startPartnerFixture(
  extra: Partial<PartnerOidcProviderOptions> = {},
  shared?: { pki: TestPki; keys: JwtClientKeys },
): Promise<PartnerFixture> {
  const pki = shared?.pki ?? makeTestPki([MTLS_CLIENT, 'other-service']);
  const keys = shared?.keys ?? (await jwtClientKeys());
  const provider = await startPartnerOidcProvider({
    tls: { cert: pki.server.cert, key: pki.server.key, ca: pki.ca },
    clients: [
      {
        clientId: MTLS_CLIENT,
        redirectUris: [REDIRECT_URI],
        idTokenAlg: 'PS256',
        auth: { method: 'tls_client_auth', subjectDn: `CN=${MTLS_CLIENT}` },
      },
      {
        clientId: JWT_CLIENT,
        redirectUris: [REDIRECT_URI],
        idTokenAlg: 'EdDSA',
        auth: { method: 'private_key_jwt', jwks: { keys: [keys.publicJwk] } },
      },
    ],
    ...extra,
  });
  const base = { baseUrl: 'https://pos.test', clientSecret: 'unused-in-these-tests', maxRetries: 0 };
  const certificate = pki.clients[MTLS_CLIENT]!;
  const browserFetch = httpsFetch({ ca: pki.ca });
  return {
    pki,
    keys,
    provider,
    mtlsClient: (options = {}) =>
      new PosClient({
        ...base,
        clientId: MTLS_CLIENT,
        tls: { cert: certificate.cert, key: certificate.key, ca: pki.ca },
        oidc: { issuer: provider.issuer, redirectUri: REDIRECT_URI, clientAuth: 'tls_client_auth' },
        ...options,
      }),
    jwtClient: (options = {}) =>
      new PosClient({
        ...base,
        clientId: JWT_CLIENT,
        // The provider's certificate is of the test CA: trusted through a fetch that knows it (no client certificate).
        fetch: browserFetch,
        oidc: {
          issuer: provider.issuer,
          redirectUri: REDIRECT_URI,
          clientAuth: { privateKey: keys.assertion.privateKey, kid: keys.publicJwk.kid },
          dpop: keys.dpop,
        },
        ...options,
      }),
    browse: (url, seller) =>
      loginAtPartnerPage(url, seller, { fetch: browserFetch, redirectUri: REDIRECT_URI }),
    close: () => provider.close(),
  };
}
