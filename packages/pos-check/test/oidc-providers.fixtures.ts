// Providers for fin-pos-check --oidc: the example partner's (oidc-provider on FAPI 2.0) and broken ones in front of it, each breaking one rule.
import { httpsFetch } from '../../../test/support/https-fetch.js';
import {
  JWT_CLIENT,
  MTLS_CLIENT,
  type PartnerFixture,
  REDIRECT_URI,
} from '../../pos-client/test/seller-login/partner-provider.fixtures.js';
import type { OidcCheckOptions } from '../src/oidc/options.js';

type Fetch = NonNullable<OidcCheckOptions['fetch']>;

/** What a broken provider does wrong; each is played in front of the example provider, which stays correct. */
export interface Breakage {
  /** Serves this discovery document instead of the provider's own. */
  discovery?: (document: Record<string, unknown>) => Record<string, unknown>;
  /** Never checks PKCE: the challenge pushed and the verifier redeemed are swapped for a pair of its own. */
  ignoresVerifier?: boolean;
  /** Answers a code redeemed again with the first answer. */
  replaysCodes?: boolean;
  /** Never compares the redeemed redirect_uri with the pushed one. */
  ignoresRedirectUri?: boolean;
}

const OWN_VERIFIER = 'broken-provider-verifier-broken-provider-verifier-0123456789';
const OWN_CHALLENGE = Buffer.from(
  await crypto.subtle.digest('SHA-256', new TextEncoder().encode(OWN_VERIFIER)),
).toString('base64url');

const formOf = (body: BodyInit | null | undefined) =>
  new URLSearchParams(typeof body === 'string' ? body : String(body ?? ''));

/** A fetch that reaches a provider broken as `breakage` says: the example provider with a faulty front. */
export function brokenProvider(send: Fetch, breakage: Breakage): Fetch {
  const answered = new Map<string, { status: number; body: string; headers: Headers }>();
  return async (input, init = {}) => {
    const url = String(input instanceof Request ? input.url : input);
    if (breakage.discovery && url.endsWith('/.well-known/openid-configuration')) {
      const document = (await (await send(input, init)).json()) as Record<string, unknown>;
      return Response.json(breakage.discovery(document));
    }
    const form = formOf(init.body);
    if (breakage.ignoresVerifier && form.has('code_challenge')) form.set('code_challenge', OWN_CHALLENGE);
    const redeeming = form.get('grant_type') === 'authorization_code';
    if (redeeming && breakage.ignoresVerifier) form.set('code_verifier', OWN_VERIFIER);
    if (redeeming && breakage.ignoresRedirectUri) form.set('redirect_uri', REDIRECT_URI);
    const code = redeeming ? form.get('code') : null;
    const kept = code && breakage.replaysCodes ? answered.get(code) : undefined;
    if (kept) return new Response(kept.body, kept);
    const response = await send(input, init.body === undefined ? init : { ...init, body: form.toString() });
    if (!code || !breakage.replaysCodes) return response;
    const body = await response.text();
    answered.set(code, { status: response.status, body, headers: response.headers });
    return new Response(body, response);
  };
}

/** The checker's options for `partner`: the private_key_jwt + DPoP client, or the tls_client_auth one over mutual TLS. */
export function checkOptions(
  partner: PartnerFixture,
  method: 'private_key_jwt' | 'tls_client_auth',
  breakage: Breakage = {},
): OidcCheckOptions {
  const seller = partner.provider.sim.data.sellers[0]!;
  const login = async (url: string) => (await partner.browse(url, seller)).callbackUrl;
  const certificate = partner.pki.clients[MTLS_CLIENT]!;
  const identity =
    method === 'tls_client_auth'
      ? { cert: certificate.cert, key: certificate.key, ca: partner.pki.ca }
      : { ca: partner.pki.ca };
  const client: OidcCheckOptions['client'] =
    method === 'tls_client_auth'
      ? { clientId: MTLS_CLIENT, redirectUri: REDIRECT_URI, clientAuth: 'tls_client_auth' }
      : {
          clientId: JWT_CLIENT,
          redirectUri: REDIRECT_URI,
          clientAuth: { privateKey: partner.keys.assertion.privateKey, kid: partner.keys.publicJwk.kid },
          dpop: partner.keys.dpop,
        };
  return {
    issuer: partner.provider.issuer,
    client,
    login,
    fetch: brokenProvider(httpsFetch(identity), breakage),
  };
}
