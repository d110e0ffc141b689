// Issue 35 acceptance: each refusal of completeLogin has its own SellerLoginError code (the @fin/pos-client/testing kit plays the partner).
import { describe, expect, test } from 'vitest';
import { SellerLoginError } from '../../src/index.js';
import { useSellerLoginKit } from './kit.fixtures.js';

const fixture = useSellerLoginKit();

/** completeLogin's failure, which must be a SellerLoginError. */
async function refusal(
  callbackUrl: string,
  transaction: Parameters<ReturnType<typeof fixture.client>['sellers']['completeLogin']>[1],
) {
  const failure = await fixture
    .client()
    .sellers.completeLogin(callbackUrl, transaction)
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(SellerLoginError);
  return failure as SellerLoginError;
}

describe('DESIGN 25: completeLogin refuses, naming why', () => {
  test('the kit plays a whole login: the session of the seller who approved', async () => {
    const seller = fixture.sim.data.sellers[0]!;
    const { callbackUrl, transaction } = await fixture.approved(seller.storeId);
    const session = await fixture.client().sellers.completeLogin(callbackUrl, transaction);
    expect(session).toMatchObject({ sellerId: seller.sellerId, taxId: seller.cpf, storeId: seller.storeId });
    // expiresAt: the token response's expires_in (600 s) from the client's clock.
    expect(session.expiresAt.getTime()).toBe(fixture.clock.now().getTime() + 600_000);
  });

  test('a tampered state: state_mismatch', async () => {
    const { callbackUrl, transaction } = await fixture.approved();
    const tampered = new URL(callbackUrl);
    tampered.searchParams.set('state', 'attacker-state');
    expect(await refusal(tampered.href, transaction)).toMatchObject({ code: 'state_mismatch' });
  });

  test('the iss of another issuer (mix-up, RFC 9207): issuer_mismatch', async () => {
    const { callbackUrl, transaction } = await fixture.approved();
    const mixedUp = new URL(callbackUrl);
    mixedUp.searchParams.set('iss', 'https://other-partner.test');
    expect(await refusal(mixedUp.href, transaction)).toMatchObject({ code: 'issuer_mismatch' });
  });

  test.each([
    ['a nonce other than the transaction’s', { nonce: 'replayed-nonce' }, 'nonce'],
    ['signed by a key outside the JWKS', { foreignKey: true }, 'signature'],
    ['alg: none', { alg: 'none' as const }, 'algorithm'],
    ['expired', { expired: true }, 'expired'],
    ['for another audience', { audience: 'another-client' }, 'audience'],
  ])('an ID token %s: id_token_invalid', async (_name, tweak, reason) => {
    const { callbackUrl, transaction } = await fixture.approved();
    fixture.kit.tweakNextIdToken(tweak);
    expect(await refusal(callbackUrl, transaction)).toMatchObject({ code: 'id_token_invalid', reason });
  });

  test('an ID token naming another issuer: issuer_mismatch', async () => {
    const { callbackUrl, transaction } = await fixture.approved();
    fixture.kit.tweakNextIdToken({ issuer: 'https://other-partner.test' });
    expect(await refusal(callbackUrl, transaction)).toMatchObject({ code: 'issuer_mismatch' });
  });

  test('a code redeemed twice: the second is code_refused', async () => {
    const { callbackUrl, transaction } = await fixture.approved();
    await fixture.client().sellers.completeLogin(callbackUrl, transaction);
    expect(await refusal(callbackUrl, transaction)).toMatchObject({
      code: 'code_refused',
      providerError: 'invalid_grant',
    });
  });

  test('a PKCE verifier other than the one the challenge was made from: code_refused', async () => {
    const { callbackUrl, transaction } = await fixture.approved();
    const forged = { ...transaction, codeVerifier: 'a'.repeat(43) };
    expect(await refusal(callbackUrl, forged)).toMatchObject({
      code: 'code_refused',
      providerError: 'invalid_grant',
    });
  });

  test('the seller cancelled at the partner (error=access_denied): access_denied', async () => {
    const { url, transaction } = await fixture.client().sellers.beginLogin();
    expect(await refusal(fixture.kit.deny(url), transaction)).toMatchObject({
      code: 'access_denied',
      providerError: 'access_denied',
    });
  });

  test('a transaction past its 10 minutes: login_expired, before any call to the provider', async () => {
    const { callbackUrl, transaction } = await fixture.approved();
    fixture.clock.advance(10 * 60_000 + 1);
    expect(await refusal(callbackUrl, transaction)).toMatchObject({ code: 'login_expired' });
  });

  test('an ID token naming a store other than the one asked: store_mismatch', async () => {
    const [asked, other] = fixture.sim.data.stores;
    const { callbackUrl, transaction } = await fixture.approved(asked!.storeId);
    fixture.kit.tweakNextIdToken({ storeId: other!.storeId });
    expect(await refusal(callbackUrl, transaction)).toMatchObject({ code: 'store_mismatch' });
  });

  test('a transaction of another issuer or client, or not one at all: state_mismatch', async () => {
    const { callbackUrl, transaction } = await fixture.approved();
    expect(
      await refusal(callbackUrl, { ...transaction, issuer: 'https://other-partner.test/' }),
    ).toMatchObject({
      code: 'state_mismatch',
    });
    expect(await refusal(callbackUrl, {} as typeof transaction)).toMatchObject({ code: 'state_mismatch' });
  });
});
