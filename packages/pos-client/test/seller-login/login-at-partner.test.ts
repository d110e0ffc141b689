// Issue 35 §2 / DESIGN 25: a whole seller login from beginLogin to a SellerSession at the partner's own provider, over mutual TLS and with private_key_jwt + DPoP.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SellerLoginError, type SellerLoginTransaction } from '../../src/index.js';
import { expectedSession, type PartnerFixture, startPartnerFixture } from './partner-provider.fixtures.js';

let partner: PartnerFixture;
beforeAll(async () => {
  partner = await startPartnerFixture();
});
afterAll(() => partner?.close());

const aSeller = () => partner.provider.sim.data.sellers[0]!;

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
    expect(session).toMatchObject(expectedSession(partner.provider, seller));
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

describe("the partner's login page (examples/partner-pos)", () => {
  test('a wrong password or a seller of another store stays on the page, with one generic error, and no code is issued', async () => {
    const [first, second] = partner.provider.sim.data.stores;
    const seller = partner.provider.sim.data.sellers.find((s) => s.storeId === first!.storeId)!;
    const client = partner.mtlsClient();
    const wrongPassword = await partner.browse((await client.sellers.beginLogin()).url, {
      cpf: seller.cpf,
      password: `${seller.password}x`,
    });
    expect(wrongPassword).toEqual({ callbackUrl: '', pageError: 'CPF, usuário ou senha inválidos.' });
    const otherStore = await partner.browse(
      (await client.sellers.beginLogin({ storeId: second!.storeId })).url,
      {
        cpf: seller.cpf,
        password: seller.password,
      },
    );
    expect(otherStore.callbackUrl).toBe('');
    expect(otherStore.pageError).toMatch(/loja/);
  });
});
