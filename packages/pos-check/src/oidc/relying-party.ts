// The checker as a relying party of the partner's provider, on oauth4webapi: discovery, a pushed login, the code's redemption.
import { ID_TOKEN_ALGORITHMS } from '@fin/pos-client';
import * as oauth from 'oauth4webapi';
import type { OidcCheckOptions } from './options.js';

/** Every call to the provider ends within this time. */
const CALL_TIMEOUT_MS = 10_000;

type Fetch = NonNullable<OidcCheckOptions['fetch']>;
type Registration = NonNullable<OidcCheckOptions['client']>;

/** One authorization code the test seller's login gave, with what the checker sent to obtain it. */
export interface Authorized {
  callback: URLSearchParams;
  codeVerifier: string;
  nonce: string;
}

/** What the redemption of a code sends, changed by the checks that expect a refusal. */
export interface Redemption {
  codeVerifier: string | typeof oauth.nopkce;
  redirectUri: string;
}

/** oauth4webapi's fetch: no redirect followed, bounded in time. */
export const providerFetch =
  (send: Fetch) =>
  (url: string, init: { body?: BodyInit | null; headers: Record<string, string>; method: string }) =>
    send(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });

/** The provider's discovery document, read and held to its issuer (oauth4webapi throws otherwise). */
export async function discover(issuer: string, send: Fetch): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  const response = await oauth.discoveryRequest(url, {
    algorithm: 'oidc',
    [oauth.customFetch]: providerFetch(send),
  });
  return oauth.processDiscoveryResponse(url, response);
}

/** The checker's client at one provider: PAR, the seller's login through the hook, and the code's redemption. */
export function relyingParty(
  as: oauth.AuthorizationServer,
  registration: Registration,
  login: NonNullable<OidcCheckOptions['login']>,
  send: Fetch,
) {
  const client: oauth.Client = {
    client_id: registration.clientId,
    // oauth4webapi holds the ID token's `alg` to this list (an array is accepted at run time).
    id_token_signed_response_alg: [...ID_TOKEN_ALGORITHMS] as unknown as string,
  };
  const auth = registration.clientAuth;
  const clientAuth =
    auth === 'tls_client_auth'
      ? oauth.TlsClientAuth()
      : oauth.PrivateKeyJwt({ key: auth.privateKey, ...(auth.kid && { kid: auth.kid }) });
  const options = {
    [oauth.customFetch]: providerFetch(send),
    [oauth.jwksCache]: {} as oauth.JWKSCacheInput,
    ...(registration.dpop && { DPoP: oauth.DPoP(client, registration.dpop) }),
  };

  /** A pushed request (PKCE S256, state, nonce), the seller's login, and the callback validated (state, `iss`). */
  async function authorize(): Promise<Authorized> {
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const parameters = new URLSearchParams({
      redirect_uri: registration.redirectUri,
      response_type: 'code',
      scope: 'openid',
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    const pushed = await oauth.processPushedAuthorizationResponse(
      as,
      client,
      await oauth.pushedAuthorizationRequest(as, client, clientAuth, parameters, options),
    );
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('client_id', client.client_id);
    url.searchParams.set('request_uri', pushed.request_uri);
    const callback = oauth.validateAuthResponse(as, client, new URL(await login(url.href)), state);
    return { callback, codeVerifier, nonce };
  }

  /** The token request for `authorized`'s code, as `redemption` says; the raw answer. */
  const redeem = async (authorized: Authorized, redemption: Redemption) =>
    oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuth,
      authorized.callback,
      redemption.redirectUri,
      redemption.codeVerifier,
      options,
    );

  /** The ID token's claims of a successful redemption: nonce, audience, expiry, `alg` and signature verified. */
  async function idTokenClaims(authorized: Authorized, response: Response) {
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: authorized.nonce,
      requireIdToken: true,
    });
    await oauth.validateApplicationLevelSignature(as, response, options);
    return oauth.getValidatedIdTokenClaims(tokens)!;
  }

  return { authorize, redeem, idTokenClaims, redirectUri: registration.redirectUri };
}

export type RelyingParty = ReturnType<typeof relyingParty>;
