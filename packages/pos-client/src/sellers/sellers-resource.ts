// pos.sellers: v1's login (both request shapes, the password sent once and kept nowhere, deprecated) and v2.0's login at the partner.
import { endpoints, FinInputError } from '@fin/core';
import { type ApiPromise, apiPromise, type WithResponse, withResponse } from '@fin/core/transport';
import type { z } from 'zod';
import { type CallOptions, type ClientContext, callOptions } from '../client-context.js';
import { exactlyOne, type Only } from '../exclusive.js';
import type { SellerLoginTransaction } from './login/login-transaction.js';
import type { BeganLogin, BeginLoginOptions, SellerLogin } from './login/seller-login.js';
import { type SellerLoginResult, type SellerSession, toSellerLoginResult } from './seller-login-result.js';

const session = endpoints.partnerPos.createSellerSession;

type ByCpf = z.infer<(typeof session.body.schema.options)[0]>;
type ByUsername = z.infer<(typeof session.body.schema.options)[1]>;

/** Shape (a) `{ cpf, password }` or shape (b) `{ username, password }`, never both. */
export type SellerCredentials = Only<ByCpf, ByUsername> | Only<ByUsername, ByCpf>;

export interface SellersResource {
  /**
   * Opens a seller session (spec v1: the seller's password passes through the financing service).
   *
   * @deprecated Spec v2.0 replaces credential passthrough with a login at the partner's own OpenID Provider:
   * configure `new PosClient({ ..., oidc: { issuer, redirectUri, clientAuth } })`, send the seller's browser
   * to the `url` of `pos.sellers.beginLogin()`, keep its `transaction`, and on your callback route call
   * `pos.sellers.completeLogin(callbackUrl, transaction)`: the same `SellerSession`, without the password
   * ever reaching you. Kept for v1 partners (`POST /v1/sellers/session`) for 12 months after the
   * deprecation notice (spec 9.3/9.4; docs/spec-decisions.md, seller login).
   *
   * Opens a seller session. Wrong credentials are `{ authorized: false, status: 'INVALID_PASSWORD' |
   * 'USER_NOT_FOUND' }`, not an error; a 401 means the system token is bad (the transport renews it and
   * replays once), never the seller's password. The password goes in the body of this one request and is
   * neither logged, kept, nor put in any error.
   */
  login(credentials: SellerCredentials, options?: CallOptions): ApiPromise<WithResponse<SellerLoginResult>>;
  /**
   * Spec v2.0: begins a seller login at the partner's OpenID Provider (FAPI 2.0: a pushed request with this
   * client's authentication, PKCE S256, state, nonce). Send the browser to `url`; keep `transaction` (plain
   * JSON, no credential, valid for 10 minutes on any instance of this client) for `completeLogin`. Needs
   * the `oidc` option; throws a SellerLoginError `provider_error` when the provider cannot be used.
   */
  beginLogin(options?: BeginLoginOptions): Promise<BeganLogin>;
  /**
   * Spec v2.0: finishes the login on your callback route: checks the callback (state, `iss`), redeems the
   * code (PKCE verifier, client authentication, DPoP with `private_key_jwt`), verifies the ID token
   * (signature against the provider's JWKS, PS256/ES256/EdDSA, audience, nonce, expiry, the store asked)
   * and returns the seller's session. Every failure is a SellerLoginError naming why in `code`.
   */
  completeLogin(callbackUrl: string | URL, transaction: SellerLoginTransaction): Promise<SellerSession>;
}

const withoutOidc = async (): Promise<never> => {
  throw new FinInputError({
    code: 'validation_error',
    details: [{ field: 'oidc', issue: 'seller login at the partner needs the `oidc` option of PosClient' }],
  });
};

export const sellersResource = (context: ClientContext, oidc: SellerLogin | undefined): SellersResource => ({
  login: (credentials, options = {}) => apiPromise(login(context, credentials, options)),
  beginLogin: oidc ? oidc.beginLogin : withoutOidc,
  completeLogin: oidc ? oidc.completeLogin : withoutOidc,
});

async function login(
  context: ClientContext,
  credentials: SellerCredentials,
  options: CallOptions,
): Promise<WithResponse<SellerLoginResult>> {
  const key = exactlyOne(credentials, ['cpf', 'username']);
  if (!key || typeof credentials.password !== 'string') {
    throw new FinInputError({
      code: 'validation_error',
      details: [{ field: 'cpf|username', issue: 'exactly one of cpf or username, and a password' }],
    });
  }
  const body =
    key === 'cpf'
      ? { cpf: credentials.cpf, password: credentials.password }
      : { username: credentials.username, password: credentials.password };
  const { data, meta } = await context.http.request({
    ...endpoints.endpointRequest(session, { body }),
    ...callOptions(options),
  });
  const result = toSellerLoginResult(data, meta.message);
  return withResponse(result, meta);
}
