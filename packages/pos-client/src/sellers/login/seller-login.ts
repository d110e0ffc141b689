// pos.sellers.beginLogin / completeLogin: the seller logs in at the partner's provider (PAR, PKCE, state, nonce), never through us.
import * as oauth from 'oauth4webapi';
import type { ClientContext } from '../../client-context.js';
import { requireStoreId } from '../../resources/store-id.js';
import type { SellerSession } from '../seller-login-result.js';
import { sellerIdTokenClaims, sessionFromClaims } from './id-token-session.js';
import { type LoginStep, loginFailure } from './login-failure.js';
import { type SellerLoginTransaction, sellerLoginTransaction } from './login-transaction.js';
import { providerDiscovery } from './provider-discovery.js';
import type { RelyingParty } from './relying-party.js';
import { SellerLoginError } from './seller-login-error.js';

/** What the login may ask of the provider; all optional. */
export interface BeginLoginOptions {
  /** The store the seller logs in to (a seller of several stores): the ID token's `store_id` must be it. */
  storeId?: string;
  /** A hint of who logs in (the provider may prefill its page); never a password. */
  loginHint?: string;
  /** Assurance levels asked, e.g. `['urn:brasil:openbanking:loa2']`. */
  acrValues?: readonly string[];
}

export interface BeganLogin {
  /** Send the seller's browser here (the partner's login page). */
  url: string;
  /** Keep it server-side until the callback: plain JSON, valid on any instance until `expiresAt`. */
  transaction: SellerLoginTransaction;
}

export interface SellerLogin {
  beginLogin(options?: BeginLoginOptions): Promise<BeganLogin>;
  completeLogin(callbackUrl: string | URL, transaction: SellerLoginTransaction): Promise<SellerSession>;
}

/** Runs `work` as login step `step`: whatever it throws leaves as a SellerLoginError. */
async function step<T>(name: LoginStep, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw loginFailure(name, error);
  }
}

function pushedParameters(rp: RelyingParty, options: BeginLoginOptions, secrets: Record<string, string>) {
  const parameters = new URLSearchParams({
    response_type: 'code',
    scope: 'openid',
    redirect_uri: rp.redirectUri,
    state: secrets.state!,
    nonce: secrets.nonce!,
    code_challenge: secrets.codeChallenge!,
    code_challenge_method: 'S256',
  });
  if (options.storeId !== undefined) parameters.set('store_id', requireStoreId(options.storeId));
  if (options.loginHint) parameters.set('login_hint', options.loginHint);
  if (options.acrValues?.length) parameters.set('acr_values', options.acrValues.join(' '));
  return parameters;
}

/** The transaction `completeLogin` was given, read back; one of another client or issuer, or expired, is refused. */
function ownTransaction(rp: RelyingParty, transaction: unknown): SellerLoginTransaction {
  const parsed = sellerLoginTransaction.safeParse(transaction);
  if (!parsed.success || parsed.data.issuer !== rp.issuer.href || parsed.data.clientId !== rp.clientId) {
    throw new SellerLoginError('state_mismatch');
  }
  if (new Date(parsed.data.expiresAt).getTime() <= rp.clock.now().getTime())
    throw new SellerLoginError('login_expired');
  return parsed.data;
}

export function sellerLogin(context: ClientContext, rp: RelyingParty, method: string): SellerLogin {
  const discover = providerDiscovery(rp, method);

  async function beginLogin(options: BeginLoginOptions = {}): Promise<BeganLogin> {
    const as = await discover();
    const client = rp.client();
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const secrets = {
      state: oauth.generateRandomState(),
      nonce: oauth.generateRandomNonce(),
      codeChallenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    };
    const parameters = pushedParameters(rp, options, secrets);
    const pushed = await step('token', async () => {
      const response = await oauth.pushedAuthorizationRequest(
        as,
        client,
        await rp.clientAuth(),
        parameters,
        rp.requestOptions(client),
      );
      return oauth.processPushedAuthorizationResponse(as, client, response);
    }).catch((error: SellerLoginError) => {
      throw error.code === 'code_refused'
        ? new SellerLoginError('provider_error', { reason: 'refused' })
        : error;
    });
    const url = new URL(as.authorization_endpoint!);
    url.searchParams.set('client_id', rp.clientId);
    url.searchParams.set('request_uri', pushed.request_uri);
    const expiresAt = new Date(rp.clock.now().getTime() + rp.loginTtlMs).toISOString();
    context.log('info', { event: 'seller_login.begin', issuer: as.issuer, storeId: options.storeId });
    return {
      url: url.href,
      transaction: {
        version: 1,
        issuer: rp.issuer.href,
        clientId: rp.clientId,
        redirectUri: rp.redirectUri,
        state: secrets.state,
        nonce: secrets.nonce,
        codeVerifier,
        ...(options.storeId === undefined ? {} : { storeId: options.storeId }),
        expiresAt,
      },
    };
  }

  async function exchange(
    callbackUrl: string | URL,
    transaction: SellerLoginTransaction,
  ): Promise<SellerSession> {
    const own = ownTransaction(rp, transaction);
    const as = await discover();
    const client = rp.client();
    const callback = await step('callback', () =>
      oauth.validateAuthResponse(as, client, new URL(callbackUrl), own.state),
    );
    const options = rp.requestOptions(client);
    const response = await step('token', async () =>
      oauth.authorizationCodeGrantRequest(
        as,
        client,
        await rp.clientAuth(),
        callback,
        own.redirectUri,
        own.codeVerifier,
        options,
      ),
    );
    const tokens = await step('token', () =>
      oauth.processAuthorizationCodeResponse(as, client, response, {
        expectedNonce: own.nonce,
        requireIdToken: true,
      }),
    );
    await step('signature', () => oauth.validateApplicationLevelSignature(as, response, options));
    const claims = sellerIdTokenClaims.safeParse(oauth.getValidatedIdTokenClaims(tokens));
    if (!claims.success) throw new SellerLoginError('id_token_invalid', { reason: 'claims' });
    if (own.storeId !== undefined && claims.data.store_id !== own.storeId)
      throw new SellerLoginError('store_mismatch');
    const now = rp.clock.now().getTime();
    const lifetime = tokens.expires_in ?? 0;
    return sessionFromClaims(claims.data, tokens.access_token, new Date(now + lifetime * 1000));
  }

  return {
    beginLogin,
    async completeLogin(callbackUrl, transaction) {
      try {
        const session = await exchange(callbackUrl, transaction);
        context.log('info', { event: 'seller_login.complete', storeId: session.storeId });
        return session;
      } catch (error) {
        const failure = error instanceof SellerLoginError ? error : loginFailure('token', error);
        context.log('warn', { event: 'seller_login.failed', code: failure.code, reason: failure.reason });
        throw failure;
      }
    },
  };
}
