// oidc-provider configured on the FAPI 2.0 profile for the partner POS: PAR, PKCE S256, mTLS or private_key_jwt, bound tokens.
import { randomBytes, X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { SimulatedPos } from '@fin/pos-client/testing';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { PASSWORD_ACR } from './login-page.js';
import { ID_TOKEN_ALGORITHMS, type IdTokenAlgorithm } from './provider-keys.js';
import { SELLER_CLAIM_NAMES, sellerClaims } from './seller-claims.js';

/** A relying party registered at the partner: the financing service. */
export interface PartnerOidcClient {
  clientId: string;
  redirectUris: string[];
  /** The algorithm of its ID tokens; default ES256. */
  idTokenAlg?: IdTokenAlgorithm;
  /**
   * `tls_client_auth` (RFC 8705): its certificate's subject DN, e.g. `CN=financing-service`; tokens bound to
   * the certificate. `private_key_jwt`: its public JWK set; tokens DPoP-bound (RFC 9449).
   */
  auth:
    | { method: 'tls_client_auth'; subjectDn: string }
    | { method: 'private_key_jwt'; jwks: { keys: JsonWebKey[] } };
}

/** Lifetimes in seconds; FAPI 2.0 wants codes single-use and short-lived. */
export const PARTNER_OIDC_TTL = {
  AuthorizationCode: 60,
  PushedAuthorizationRequest: 60,
  Interaction: 600,
  Session: 3600,
  Grant: 3600,
  IdToken: 600,
  AccessToken: 600,
} as const;

const peerCertificate = (ctx: KoaContextWithOIDC) => {
  const socket = ctx.req.socket as TLSSocket;
  const raw = socket.getPeerCertificate?.(false)?.raw;
  return raw ? new X509Certificate(raw) : undefined;
};

const clientMetadata = (client: PartnerOidcClient) => ({
  client_id: client.clientId,
  redirect_uris: client.redirectUris,
  grant_types: ['authorization_code'],
  response_types: ['code'],
  require_auth_time: true,
  id_token_signed_response_alg: client.idTokenAlg ?? 'ES256',
  ...(client.auth.method === 'tls_client_auth'
    ? {
        token_endpoint_auth_method: 'tls_client_auth',
        tls_client_auth_subject_dn: client.auth.subjectDn,
        tls_client_certificate_bound_access_tokens: true,
      }
    : {
        token_endpoint_auth_method: 'private_key_jwt',
        token_endpoint_auth_signing_alg: undefined,
        jwks: client.auth.jwks,
        dpop_bound_access_tokens: true,
      }),
});

export interface ConfigurationInput {
  clients: PartnerOidcClient[];
  sim: SimulatedPos;
  jwks: { keys: object[] };
  storeOfGrant: Map<string, string>;
  /** Plays a broken partner: every ID token names this store, whatever was asked. */
  idTokenStoreId?: string;
}

/** The claims of `sellerId` at the store its grant was issued for. */
function findAccount(input: ConfigurationInput): Configuration['findAccount'] {
  return (_ctx, sellerId, token) => {
    const seller = input.sim.data.sellers.find((candidate) => candidate.sellerId === sellerId);
    if (!seller) return undefined;
    const granted = (token?.grantId && input.storeOfGrant.get(token.grantId)) || seller.storeId;
    const storeId = input.idTokenStoreId ?? granted;
    const store = input.sim.data.stores.find((candidate) => candidate.storeId === storeId);
    return {
      accountId: sellerId,
      claims: () => (store ? sellerClaims(seller, store) : { sub: sellerId }),
    };
  };
}

export function providerConfiguration(input: ConfigurationInput): Configuration {
  const algorithms = [...ID_TOKEN_ALGORITHMS];
  return {
    clients: input.clients.map(clientMetadata) as Configuration['clients'],
    jwks: input.jwks as Configuration['jwks'],
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    findAccount: findAccount(input),
    claims: { openid: [...SELLER_CLAIM_NAMES] },
    conformIdTokenClaims: false,
    acrValues: [PASSWORD_ACR, 'urn:brasil:openbanking:loa3'],
    extraParams: ['store_id'],
    responseTypes: ['code'],
    clientAuthMethods: ['tls_client_auth', 'private_key_jwt'],
    enabledJWA: {
      idTokenSigningAlgValues: algorithms,
      clientAuthSigningAlgValues: algorithms,
      dPoPSigningAlgValues: algorithms,
      requestObjectSigningAlgValues: algorithms,
    },
    ttl: { ...PARTNER_OIDC_TTL },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      fapi: { enabled: true, profile: '2.0' },
      pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: true },
      dPoP: { enabled: true },
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      mTLS: {
        enabled: true,
        certificateBoundAccessTokens: true,
        tlsClientAuth: true,
        getCertificate: peerCertificate,
        certificateAuthorized: (ctx) => (ctx.req.socket as TLSSocket).authorized === true,
        certificateSubjectMatches: (ctx, property, expected) =>
          property === 'tls_client_auth_subject_dn' && peerCertificate(ctx)?.subject === expected,
      },
    },
  };
}
