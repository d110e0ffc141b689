// A partner's OpenID Provider for the financing team's own tests, without a browser: discovery, PAR, token and JWKS as a fetch handler.
import { type Clock, systemClock } from '@fin/core';
import { createSimulatedPos, type SimulatedPos } from '../simulated-pos.js';
import { base64url, es256KeyPair, publicJwk, signJws, verifiedPayload } from './compact-jws.js';

/** How the next ID token breaks the contract, to test a callback's refusals. */
export interface IdTokenTweak {
  /** `none`: unsigned. */
  alg?: 'none';
  /** Signed by a key the JWKS does not hold. */
  foreignKey?: boolean;
  /** Already expired when issued. */
  expired?: boolean;
  nonce?: string;
  storeId?: string;
  issuer?: string;
  audience?: string;
}

export interface SimulatedSellerLoginOptions {
  /** Default `https://pos-login.test`. */
  issuer?: string;
  /** The financing service's client id at the partner; default `financing-service`. */
  clientId?: string;
  /** The partner whose sellers log in; default a fresh `createSimulatedPos()`. */
  sim?: Pick<SimulatedPos, 'data'>;
  clock?: Clock;
}

export interface SimulatedSellerLogin {
  issuer: string;
  clientId: string;
  /** The client's `private_key_jwt` key and DPoP pair, made at test time: `oidc: { clientAuth, dpop }`. */
  clientAuth: { privateKey: CryptoKey; kid: string };
  dpop: CryptoKeyPair;
  /** The provider as a Web handler (discovery, JWKS, PAR, token); `simulatedSellerLoginHandlers` gives it to msw. */
  fetch(request: Request): Promise<Response>;
  /** The seller logs in at the partner's page (by id; default the first seller of the store asked): the callback URL. */
  approve(authorizationUrl: string, sellerId?: string): string;
  /** The seller cancels at the partner's page: the callback URL with `error=access_denied`. */
  deny(authorizationUrl: string): string;
  /** Breaks the next ID token issued. */
  tweakNextIdToken(tweak: IdTokenTweak): void;
}

interface PushedRequest {
  params: URLSearchParams;
  expiresAt: number;
}
interface IssuedCode {
  request: PushedRequest;
  sellerId: string;
  expiresAt: number;
  used: boolean;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
const oauthError = (error: string, status = 400) => json({ error }, status);
const random = () => base64url(crypto.getRandomValues(new Uint8Array(24)));
const sha256 = async (text: string) =>
  base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));

/** Discovery of the kit's provider: what the contract asks (PAR, S256, `iss`, private_key_jwt, DPoP, ES256). */
const metadataOf = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  pushed_authorization_request_endpoint: `${issuer}/par`,
  require_pushed_authorization_requests: true,
  token_endpoint: `${issuer}/token`,
  jwks_uri: `${issuer}/jwks`,
  response_types_supported: ['code'],
  grant_types_supported: ['authorization_code'],
  code_challenge_methods_supported: ['S256'],
  authorization_response_iss_parameter_supported: true,
  token_endpoint_auth_methods_supported: ['private_key_jwt'],
  token_endpoint_auth_signing_alg_values_supported: ['ES256'],
  dpop_signing_alg_values_supported: ['ES256'],
  id_token_signing_alg_values_supported: ['ES256'],
  subject_types_supported: ['public'],
  scopes_supported: ['openid'],
});

/** The kit's state: keys, pushed requests, codes, the next tweak. */
interface KitState {
  issuer: string;
  clientId: string;
  clock: Clock;
  sim: Pick<SimulatedPos, 'data'>;
  signing: CryptoKeyPair;
  foreign: CryptoKeyPair;
  client: CryptoKeyPair;
  requests: Map<string, PushedRequest>;
  codes: Map<string, IssuedCode>;
  tweak: IdTokenTweak;
}

const nowSeconds = (state: KitState) => Math.floor(state.clock.now().getTime() / 1000);

/** private_key_jwt: the assertion is ES256 by the client's key, `iss` = `sub` = its id, for this issuer, unexpired. */
async function clientAuthenticated(state: KitState, form: URLSearchParams): Promise<boolean> {
  if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
    return false;
  const claims = await verifiedPayload(form.get('client_assertion') ?? '', state.client.publicKey);
  const audience = [claims?.aud].flat();
  return (
    claims?.iss === state.clientId &&
    claims.sub === state.clientId &&
    audience.some((aud) => typeof aud === 'string' && aud.startsWith(state.issuer)) &&
    typeof claims.exp === 'number' &&
    claims.exp > nowSeconds(state)
  );
}

async function pushed(state: KitState, request: Request): Promise<Response> {
  const form = new URLSearchParams(await request.text());
  if (!(await clientAuthenticated(state, form))) return oauthError('invalid_client', 401);
  if (!request.headers.has('dpop')) return oauthError('invalid_dpop_proof');
  const valid =
    form.get('response_type') === 'code' &&
    form.get('code_challenge_method') === 'S256' &&
    form.has('code_challenge') &&
    form.has('state') &&
    form.has('nonce') &&
    (form.get('scope') ?? '').split(' ').includes('openid');
  if (!valid) return oauthError('invalid_request');
  const requestUri = `urn:ietf:params:oauth:request_uri:${random()}`;
  state.requests.set(requestUri, { params: form, expiresAt: state.clock.now().getTime() + 60_000 });
  return json({ request_uri: requestUri, expires_in: 60 }, 201);
}

/** The ID token of `code`, signed by the provider's key unless the tweak says otherwise. */
async function idTokenOf(state: KitState, code: IssuedCode): Promise<string> {
  const tweak = state.tweak;
  state.tweak = {};
  const seller = state.sim.data.sellers.find((candidate) => candidate.sellerId === code.sellerId)!;
  const storeId = tweak.storeId ?? seller.storeId;
  const store = state.sim.data.stores.find((candidate) => candidate.storeId === storeId) ?? {
    storeId,
    name: '',
    cnpj: '',
    address: undefined,
  };
  const now = nowSeconds(state);
  const claims = {
    iss: tweak.issuer ?? state.issuer,
    aud: tweak.audience ?? state.clientId,
    sub: seller.sellerId,
    iat: tweak.expired ? now - 1200 : now,
    exp: tweak.expired ? now - 600 : now + 600,
    auth_time: now,
    nonce: tweak.nonce ?? code.request.params.get('nonce'),
    acr: 'urn:brasil:openbanking:loa2',
    amr: ['pwd'],
    name: seller.name,
    cpf: seller.cpf,
    store_id: store.storeId,
    store_name: store.name,
    store_cnpj: store.cnpj,
    store_address: store.address,
    role: seller.role,
    is_manager: seller.isManager,
    job_title: seller.jobTitle,
  };
  const key = tweak.foreignKey ? state.foreign : state.signing;
  const header =
    tweak.alg === 'none' ? { alg: 'none' } : { alg: 'ES256', kid: tweak.foreignKey ? 'foreign' : 'kit-1' };
  return signJws(header, claims, key.privateKey);
}

async function token(state: KitState, request: Request): Promise<Response> {
  const form = new URLSearchParams(await request.text());
  if (!(await clientAuthenticated(state, form))) return oauthError('invalid_client', 401);
  if (!request.headers.has('dpop')) return oauthError('invalid_dpop_proof');
  const code = state.codes.get(form.get('code') ?? '');
  if (form.get('grant_type') !== 'authorization_code' || !code) return oauthError('invalid_grant');
  const spent = code.used || code.expiresAt <= state.clock.now().getTime();
  code.used = true;
  const challenge = await sha256(form.get('code_verifier') ?? '');
  const params = code.request.params;
  if (
    spent ||
    challenge !== params.get('code_challenge') ||
    form.get('redirect_uri') !== params.get('redirect_uri')
  ) {
    return oauthError('invalid_grant');
  }
  return json({
    access_token: random(),
    token_type: 'DPoP',
    expires_in: 600,
    scope: 'openid',
    id_token: await idTokenOf(state, code),
  });
}

/** The pushed request an authorization URL names, unexpired. */
function pushedRequestOf(state: KitState, authorizationUrl: string): PushedRequest {
  const request = state.requests.get(new URL(authorizationUrl).searchParams.get('request_uri') ?? '');
  if (!request || request.expiresAt <= state.clock.now().getTime())
    throw new Error('no pushed request for this URL');
  return request;
}

const callbackOf = (state: KitState, request: PushedRequest, result: Record<string, string>) => {
  const url = new URL(request.params.get('redirect_uri')!);
  for (const [name, value] of Object.entries({
    ...result,
    state: request.params.get('state')!,
    iss: state.issuer,
  })) {
    url.searchParams.set(name, value);
  }
  return url.href;
};

/** Starts the kit: its keys are made now, nothing is listening (give `fetch` to msw or to the client). */
export async function createSimulatedSellerLogin(
  options: SimulatedSellerLoginOptions = {},
): Promise<SimulatedSellerLogin> {
  const [signing, foreign, client, dpop] = await Promise.all([
    es256KeyPair(),
    es256KeyPair(),
    es256KeyPair(),
    es256KeyPair(),
  ]);
  const state: KitState = {
    issuer: (options.issuer ?? 'https://pos-login.test').replace(/\/+$/, ''),
    clientId: options.clientId ?? 'financing-service',
    clock: options.clock ?? systemClock,
    sim: options.sim ?? createSimulatedPos(),
    signing,
    foreign,
    client,
    requests: new Map(),
    codes: new Map(),
    tweak: {},
  };
  const jwks = { keys: [await publicJwk(signing, 'kit-1')] };
  const routes: Record<string, (request: Request) => Promise<Response> | Response> = {
    'GET /.well-known/openid-configuration': () => json(metadataOf(state.issuer)),
    'GET /jwks': () => json(jwks),
    'POST /par': (request) => pushed(state, request),
    'POST /token': (request) => token(state, request),
  };
  return {
    issuer: state.issuer,
    clientId: state.clientId,
    clientAuth: { privateKey: client.privateKey, kid: 'financing-kit-1' },
    dpop,
    fetch: async (request) => {
      const route = routes[`${request.method} ${new URL(request.url).pathname}`];
      return route ? route(request) : oauthError('not_found', 404);
    },
    approve(authorizationUrl, sellerId) {
      const request = pushedRequestOf(state, authorizationUrl);
      const storeId = request.params.get('store_id');
      const seller = state.sim.data.sellers.find((candidate) =>
        sellerId ? candidate.sellerId === sellerId : !storeId || candidate.storeId === storeId,
      );
      if (!seller) throw new Error('no such seller at the store asked');
      const code = random();
      state.codes.set(code, {
        request,
        sellerId: seller.sellerId,
        expiresAt: state.clock.now().getTime() + 60_000,
        used: false,
      });
      return callbackOf(state, request, { code });
    },
    deny: (authorizationUrl) =>
      callbackOf(state, pushedRequestOf(state, authorizationUrl), { error: 'access_denied' }),
    tweakNextIdToken(tweak) {
      state.tweak = tweak;
    },
  };
}
