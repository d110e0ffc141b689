// The financing service as a relying party of one partner's provider: its oauth4webapi client, authentication, DPoP key and fetch.
import { type Clock, FinInputError } from '@fin/core';
import { type ClientTlsOptions, type Fetch, tlsFetch } from '@fin/core/transport';
import * as oauth from 'oauth4webapi';
import { DEFAULT_LOGIN_TTL_MS } from './login-transaction.js';
import { providerFetch } from './provider-fetch.js';

/** The ID token algorithms FAPI 2.0 allows (DESIGN 25): any other, `none` and HS* included, is refused. */
export const ID_TOKEN_ALGORITHMS = ['PS256', 'ES256', 'EdDSA'] as const;

/** A private key for `private_key_jwt`: a WebCrypto key (ES256, PS256 or Ed25519) or its private JWK. */
export type ClientPrivateKey = CryptoKey | JsonWebKey;

/** Seller login at the partner's OpenID Provider (spec v2.0, FAPI 2.0); `new PosClient({ ..., oidc })`. */
export interface PosClientOidcOptions {
  /** The partner's issuer identifier, pinned: discovery is read from it once and must name it. */
  issuer: string;
  /** Where the provider sends the seller's browser back: your callback route, registered at the partner. */
  redirectUri: string;
  /** The client id registered at the provider; default the PosClient's `clientId`. */
  clientId?: string;
  /**
   * `'tls_client_auth'`: the client's `tls` certificate authenticates it (RFC 8705), seller tokens bound to it.
   * `{ privateKey, kid? }`: `private_key_jwt`, with `dpop` required.
   */
  clientAuth: 'tls_client_auth' | { privateKey: ClientPrivateKey; kid?: string };
  /** With `private_key_jwt`: the DPoP key pair binding seller tokens (RFC 9449); the same pair on every instance. */
  dpop?: CryptoKeyPair;
  /** Time a login transaction stays valid; default 10 minutes. */
  loginTtlMs?: number;
}

/** What the relying party reads from the PosClient's own options. */
export interface RelyingPartyContext {
  clientId: string;
  tls?: ClientTlsOptions;
  fetch?: Fetch;
  timeoutMs?: number;
  clock: Clock;
}

const invalid = (field: string, issue: string) =>
  new FinInputError({ code: 'validation_error', details: [{ field: `oidc.${field}`, issue }] });

/** The WebCrypto import of a private JWK by its key type: ES256 (P-256), Ed25519, or PS256 (RSA). */
function importParameters(jwk: JsonWebKey): EcKeyImportParams | RsaHashedImportParams | Algorithm {
  if (jwk.kty === 'EC') return { name: 'ECDSA', namedCurve: jwk.crv ?? 'P-256' };
  if (jwk.kty === 'OKP') return { name: 'Ed25519' };
  return { name: 'RSA-PSS', hash: 'SHA-256' };
}

async function signingKey(privateKey: ClientPrivateKey, kid: string | undefined): Promise<oauth.PrivateKey> {
  if (privateKey instanceof CryptoKey) return { key: privateKey, ...(kid && { kid }) };
  const key = await crypto.subtle.importKey('jwk', privateKey, importParameters(privateKey), false, ['sign']);
  const id = kid ?? (privateKey as { kid?: string }).kid;
  return { key, ...(id && { kid: id }) };
}

function checkOptions(oidc: PosClientOidcOptions, context: RelyingPartyContext): void {
  if (!URL.canParse(oidc.issuer) || new URL(oidc.issuer).protocol !== 'https:')
    throw invalid('issuer', 'an https URL');
  if (!URL.canParse(oidc.redirectUri)) throw invalid('redirectUri', 'an absolute URL');
  if (oidc.clientAuth === 'tls_client_auth') {
    if (!context.tls) throw invalid('clientAuth', "'tls_client_auth' needs the client's `tls` certificate");
    return;
  }
  if (typeof oidc.clientAuth !== 'object' || !oidc.clientAuth.privateKey) {
    throw invalid('clientAuth', "'tls_client_auth' or { privateKey, kid? }");
  }
  if (!oidc.dpop?.privateKey || !oidc.dpop.publicKey) {
    throw invalid(
      'dpop',
      'private_key_jwt needs a DPoP key pair: FAPI 2.0 seller tokens are sender-constrained',
    );
  }
}

export interface RelyingParty {
  issuer: URL;
  clientId: string;
  redirectUri: string;
  loginTtlMs: number;
  clock: Clock;
  /** The oauth4webapi client, its clock set to the PosClient's. */
  client(): oauth.Client;
  clientAuth(): Promise<oauth.ClientAuth>;
  /** Options of every oauth4webapi call: the bounded fetch, and the DPoP handle with `private_key_jwt`. */
  requestOptions(client: oauth.Client): {
    [oauth.customFetch]: ReturnType<typeof providerFetch>;
    [oauth.jwksCache]: oauth.JWKSCacheInput;
    DPoP?: oauth.DPoPHandle;
  };
}

/** Throws a FinInputError when `oidc` is incomplete; nothing is fetched until the first login. */
export function createRelyingParty(oidc: PosClientOidcOptions, context: RelyingPartyContext): RelyingParty {
  checkOptions(oidc, context);
  const base: Fetch = context.tls
    ? tlsFetch(context.tls, context.fetch)
    : (input, init) => (context.fetch ?? globalThis.fetch)(input, init);
  const fetch = providerFetch(base, context.timeoutMs ?? 10_000);
  const auth = oidc.clientAuth;
  let privateKeyJwt: Promise<oauth.ClientAuth> | undefined;
  // The provider's keys, kept between logins; oauth4webapi refetches them on an unknown `kid`.
  const jwks: oauth.JWKSCacheInput = {};
  return {
    issuer: new URL(oidc.issuer),
    clientId: oidc.clientId ?? context.clientId,
    redirectUri: oidc.redirectUri,
    loginTtlMs: oidc.loginTtlMs ?? DEFAULT_LOGIN_TTL_MS,
    clock: context.clock,
    client: () => ({
      client_id: oidc.clientId ?? context.clientId,
      // oauth4webapi holds the ID token's `alg` to this list (an array is accepted at run time).
      id_token_signed_response_alg: [...ID_TOKEN_ALGORITHMS] as unknown as string,
      // Whole seconds between the client's clock and the machine's, as oauth4webapi counts them.
      [oauth.clockSkew]: Math.trunc((context.clock.now().getTime() - Date.now()) / 1000),
    }),
    clientAuth() {
      if (auth === 'tls_client_auth') return Promise.resolve(oauth.TlsClientAuth());
      privateKeyJwt ??= signingKey(auth.privateKey, auth.kid).then((key) => oauth.PrivateKeyJwt(key));
      return privateKeyJwt;
    },
    requestOptions: (client) => ({
      [oauth.customFetch]: fetch,
      [oauth.jwksCache]: jwks,
      ...(oidc.dpop && { DPoP: oauth.DPoP(client, oidc.dpop) }),
    }),
  };
}
