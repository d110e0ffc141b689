// Issue 35 §4: a seller logs in as a person would, headless Chromium typing CPF and password on the partner provider's real page, from beginLogin to the SellerSession.
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { announceSkip, chromiumPath, launchChromium, skipBrowser } from '../../../../test/docs/chromium.js';
import type { PosClient } from '../../src/index.js';
import {
  expectedSession,
  type PartnerFixture,
  REDIRECT_URI,
  startPartnerFixture,
} from './partner-provider.fixtures.js';

announceSkip('seller login in headless Chromium');

describe.skipIf(skipBrowser)(
  `seller login at the partner's page in headless Chromium (${chromiumPath})`,
  () => {
    let browser: Browser | undefined;
    let partner: PartnerFixture;

    beforeAll(async () => {
      [browser, partner] = await Promise.all([launchChromium(), startPartnerFixture()]);
    });

    afterAll(async () => {
      await Promise.all([browser?.close(), partner?.close()]);
    });

    /**
     * The seller's browser: it trusts the provider's test certificate (as a browser whose owner installed
     * the CA), and the financing team's callback route is played by request interception, which keeps the
     * URL the provider redirected to (code, state, iss) and answers a page.
     */
    async function sellerBrowser(): Promise<{ context: BrowserContext; callback: Promise<string> }> {
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const callback = new Promise<string>((resolve) => {
        void context.route(`${REDIRECT_URI}**`, async (route) => {
          resolve(route.request().url());
          await route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Logged in</p>' });
        });
      });
      return { context, callback };
    }

    test.each([
      ['tls_client_auth over mutual TLS', () => partner.mtlsClient()],
      ['private_key_jwt with DPoP-bound tokens', () => partner.jwtClient()],
    ] as [string, () => PosClient][])(
      '%s: the seller types CPF and password on the provider page; completeLogin gives the session',
      async (_name, makeClient) => {
        const seller = partner.provider.sim.data.sellers[0]!;
        const pos = makeClient();
        const { url, transaction } = await pos.sellers.beginLogin({ storeId: seller.storeId });
        const { context, callback } = await sellerBrowser();
        try {
          const page = await context.newPage();
          await page.goto(url);
          // The partner's own page: served by its issuer, naming the store asked in the pushed request.
          expect(new URL(page.url()).origin).toBe(partner.provider.issuer);
          expect(await page.textContent('#store')).toBe(seller.storeId);
          await page.fill('#cpf', seller.cpf);
          await page.fill('#password', seller.password);
          await page.click('#submit');
          const callbackUrl = await callback;
          expect(new URL(callbackUrl).searchParams.get('iss')).toBe(partner.provider.issuer);
          const session = await pos.sellers.completeLogin(callbackUrl, transaction);
          expect(session).toMatchObject(expectedSession(partner.provider, seller));
          expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now());
        } finally {
          await context.close();
        }
      },
    );
  },
);
