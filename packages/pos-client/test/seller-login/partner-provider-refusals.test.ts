// Issue 35 acceptance against the example partner's real provider (oidc-provider): a replayed code, a wrong verifier, another store, and bound tokens refused at userinfo from another certificate or DPoP key.
import { webcrypto } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { httpsFetch } from '../../../../test/support/https-fetch.js';
import { type PosClient, SellerLoginError, type SellerSession } from '../../src/index.js';
import { type PartnerFixture, startPartnerFixture } from './partner-provider.fixtures.js';

let partner: PartnerFixture;
let brokenPartner: PartnerFixture;
beforeAll(async () => {
  partner = await startPartnerFixture();
  // A partner whose ID tokens name the other store, whatever the pushed request asked.
  const otherStore = partner.provider.sim.data.stores[1]!.storeId;
  brokenPartner = await startPartnerFixture({ idTokenStoreId: otherStore }, partner);
});
afterAll(async () => {
  await partner?.close();
  await brokenPartner?.close();
});

/** A seller of the first store, logged in at `at` through `client`'s beginLogin and the partner's page. */
async function loggedIn(at: PartnerFixture, client: PosClient) {
  const seller = at.provider.sim.data.sellers.find(
    (s) => s.storeId === at.provider.sim.data.stores[0]!.storeId,
  )!;
  const { url, transaction } = await client.sellers.beginLogin({ storeId: seller.storeId });
  const { callbackUrl } = await at.browse(url, { cpf: seller.cpf, password: seller.password });
  return { callbackUrl, transaction };
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the login should have been refused'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(SellerLoginError);
      return error as SellerLoginError;
    },
  );

describe('DESIGN 25 against oidc-provider: codes single-use, PKCE enforced, the store asked', () => {
  test('a code redeemed twice: the second is code_refused (invalid_grant)', async () => {
    const client = partner.mtlsClient();
    const { callbackUrl, transaction } = await loggedIn(partner, client);
    await client.sellers.completeLogin(callbackUrl, transaction);
    const failure = await failureOf(partner.mtlsClient().sellers.completeLogin(callbackUrl, transaction));
    expect(failure).toMatchObject({ code: 'code_refused', providerError: 'invalid_grant' });
  });

  test('a wrong PKCE verifier: code_refused (invalid_grant)', async () => {
    const client = partner.jwtClient();
    const { callbackUrl, transaction } = await loggedIn(partner, client);
    const forged = { ...transaction, codeVerifier: oauth.generateRandomCodeVerifier() };
    const failure = await failureOf(client.sellers.completeLogin(callbackUrl, forged));
    expect(failure).toMatchObject({ code: 'code_refused', providerError: 'invalid_grant' });
  });

  test('an ID token naming another store than the one asked: store_mismatch', async () => {
    const client = brokenPartner.mtlsClient();
    const { callbackUrl, transaction } = await loggedIn(brokenPartner, client);
    expect(await failureOf(client.sellers.completeLogin(callbackUrl, transaction))).toMatchObject({
      code: 'store_mismatch',
    });
  });
});

describe('RFC 8705 / RFC 9449: the provider refuses a seller token presented by another holder', () => {
  const userinfoUrl = () => new URL('/me', partner.provider.issuer).href;

  test('a certificate-bound token: answered with its certificate, refused from another one', async () => {
    const client = partner.mtlsClient();
    const { callbackUrl, transaction } = await loggedIn(partner, client);
    const session: SellerSession = await client.sellers.completeLogin(callbackUrl, transaction);
    const headers = { authorization: `Bearer ${session.accessToken}` };
    const own = partner.pki.clients['financing-mtls']!;
    const other = partner.pki.clients['other-service']!;
    const fromOwn = await httpsFetch({ ca: partner.pki.ca, ...own })(userinfoUrl(), { headers });
    expect(fromOwn.status).toBe(200);
    expect(await fromOwn.json()).toMatchObject({ sub: session.sellerId, store_id: session.storeId });
    const fromOther = await httpsFetch({ ca: partner.pki.ca, ...other })(userinfoUrl(), { headers });
    expect(fromOther.status).toBe(401);
  });

  test('a DPoP-bound token: answered with a proof of its key, refused with a proof of another key', async () => {
    const client = partner.jwtClient();
    const { callbackUrl, transaction } = await loggedIn(partner, client);
    const session = await client.sellers.completeLogin(callbackUrl, transaction);
    const ask = async (keyPair: CryptoKeyPair) => {
      const as = { issuer: partner.provider.issuer, userinfo_endpoint: userinfoUrl() };
      const rp: oauth.Client = { client_id: 'financing-jwt' };
      return oauth.userInfoRequest(as, rp, session.accessToken, {
        DPoP: oauth.DPoP(rp, keyPair),
        [oauth.customFetch]: httpsFetch({ ca: partner.pki.ca }),
      });
    };
    expect((await ask(partner.keys.dpop)).status).toBe(200);
    const stranger = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    expect((await ask(stranger)).status).toBe(401);
  });
});
