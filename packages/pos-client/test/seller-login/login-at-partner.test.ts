// Issue 35 §2 / DESIGN 25: a whole seller login from beginLogin to a SellerSession at the partner's own provider, over mutual TLS and with private_key_jwt + DPoP.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SellerLoginError, type SellerLoginTransaction } from '../../src/index.js';
import { sessionOf } from '../fixtures.js';
import { type PartnerFixture, startPartnerFixture } from './partner-provider.fixtures.js';

let partner: PartnerFixture;
beforeAll(async () => {
  partner = await startPartnerFixture();
});
afterAll(() => partner?.close());

const aSeller = () => partner.provider.sim.data.sellers[0]!;
const aStore = (storeId: string) =>
  partner.provider.sim.data.stores.find((store) => store.storeId === storeId)!;

describe.each([
  ['tls_client_auth over mutual TLS', () => partner.mtlsClient()],
  ['private_key_jwt with DPoP-bound tokens', () => partner.jwtClient()],
])('DESIGN 25: the seller logs in at the partner, %s', (_name, makeClient) => {
  test('the seller types CPF and password on the partner page; completeLogin gives the session, on another instance', async () => {
    const seller = aSeller();
    const { url, transaction } = await makeClient().sellers.beginLogin({ storeId: seller.storeId });
    expect(new URL(url).origin).toBe(partner.provider.issuer);
    expect(new URL(url).searchParams.has('request_uri')).toBe(true);
    // The transaction is plain JSON: it survives a round trip and carries no password or CPF.
    const kept = JSON.parse(JSON.stringify(transaction)) as SellerLoginTransaction;
    expect(JSON.stringify(kept)).not.toContain(seller.cpf);
    const { callbackUrl } = await partner.browse(url, { cpf: seller.cpf, password: seller.password });
    const session = await makeClient().sellers.completeLogin(callbackUrl, kept);
    const store = aStore(seller.storeId);
    expect(session).toMatchObject({
      ...sessionOf(seller, store),
      isManager: seller.isManager,
      role: seller.role,
      jobTitle: seller.jobTitle,
    });
    expect(session.accessToken.length).toBeGreaterThan(20);
    expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  test('a seller who presses cancel on the partner page: access_denied', async () => {
    const { url, transaction } = await makeClient().sellers.beginLogin();
    const { callbackUrl } = await partner.browse(url, 'cancel');
    const failure = await makeClient()
      .sellers.completeLogin(callbackUrl, transaction)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SellerLoginError);
    expect(failure).toMatchObject({ code: 'access_denied', providerError: 'access_denied' });
  });
});
