// Test helpers: a small simulated partner POS on loopback, the service's options for it, a token request.
import { type PartnerPosServer, startPartnerPos } from '@fin/example-partner-pos';
import type { FinancingServiceExampleOptions } from '../src/index.js';

export const POS_VENDOR = { clientId: 'test_pos_vendor', clientSecret: 'test_secret_of_the_pos_vendor' };

export const smallPartner = () =>
  startPartnerPos({ size: { stores: 2, productsPerStore: 40, employees: 10 } });

export const optionsFor = (partner: PartnerPosServer): FinancingServiceExampleOptions => ({
  partnerPosUrl: partner.url,
  partnerPosCredentials: partner.sim.credentials,
  posVendor: POS_VENDOR,
  posClient: { rateLimit: false },
});

/** `POST /v1/oauth/token` as an OAuth library sends it. */
export const tokenRequest = (url: string, clientSecret = POS_VENDOR.clientSecret) =>
  fetch(`${url}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: POS_VENDOR.clientId,
      client_secret: clientSecret,
    }),
  });
