// Discovery of the partner's provider, read once per client and held to the FAPI 2.0 contract before any login uses it.
import * as oauth from 'oauth4webapi';
import { ID_TOKEN_ALGORITHMS, type RelyingParty } from './relying-party.js';
import { SellerLoginError } from './seller-login-error.js';

/**
 * What the discovery document must state (docs/spec-decisions.md, seller login): a PAR endpoint, PKCE S256,
 * the `iss` response parameter (RFC 9207), our client authentication method, a JWKS, and an ID token
 * algorithm FAPI 2.0 allows. Returns the names of the requirements it misses.
 */
export function missingRequirements(as: oauth.AuthorizationServer, method: string): string[] {
  const has = (list: unknown, value: string) => Array.isArray(list) && list.includes(value);
  const checks: [string, boolean][] = [
    ['pushed_authorization_request_endpoint', typeof as.pushed_authorization_request_endpoint === 'string'],
    ['code_challenge_methods_supported: S256', has(as.code_challenge_methods_supported, 'S256')],
    [
      'authorization_response_iss_parameter_supported',
      as.authorization_response_iss_parameter_supported === true,
    ],
    [
      `token_endpoint_auth_methods_supported: ${method}`,
      has(as.token_endpoint_auth_methods_supported, method),
    ],
    ['jwks_uri', typeof as.jwks_uri === 'string'],
    [
      'id_token_signing_alg_values_supported: PS256, ES256 or EdDSA',
      ID_TOKEN_ALGORITHMS.some((alg) => has(as.id_token_signing_alg_values_supported, alg)),
    ],
  ];
  return checks.filter(([, ok]) => !ok).map(([name]) => name);
}

/** The provider's metadata, fetched on first use and kept; a failed read is forgotten so the next login retries. */
export function providerDiscovery(
  rp: RelyingParty,
  method: string,
): () => Promise<oauth.AuthorizationServer> {
  let cached: Promise<oauth.AuthorizationServer> | undefined;
  const discover = async () => {
    const client = rp.client();
    const response = await oauth.discoveryRequest(rp.issuer, {
      algorithm: 'oidc',
      ...rp.requestOptions(client),
    });
    const as = await oauth.processDiscoveryResponse(rp.issuer, response).catch(() => {
      throw new SellerLoginError('provider_error', { reason: 'discovery' });
    });
    if (missingRequirements(as, method).length > 0) {
      throw new SellerLoginError('provider_error', { reason: 'discovery' });
    }
    return as;
  };
  return () => {
    cached ??= discover().catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };
}
