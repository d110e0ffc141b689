// The seller login of spec v2.0 on loopback: a throwaway PKI, the partner's provider and client registration, the seller's browser.
import type { FinancingServiceExampleOptions } from '@fin/example-financing-service';
import type { PartnerPosOidc } from '@fin/example-partner-pos';
import { Agent, fetch as undiciFetch } from 'undici';
import { makeTestPki } from '../../../test/support/certificates.js';

/** The financing service as the partner registered it: its client id, and its certificate's subject. */
const FINANCING_CLIENT = 'financing-service';

/**
 * The financing team's callback route as registered at the partner. The demo's browser stops at the
 * redirect there and hands the URL to `completeLogin` itself (docs/spec-decisions.md, SL-11).
 */
export const DEMO_CALLBACK = 'https://financing.demo.test/seller-login/callback';

export interface PartnerLogin {
  /** The provider beside the partner POS: HTTPS of a CA made now, the financing service registered. */
  partner: PartnerPosOidc;
  /** The financing service's PosClient: `tls_client_auth` with its certificate, over mutual TLS. */
  financing(issuer: string): NonNullable<FinancingServiceExampleOptions['sellerLogin']>;
  /** Where the provider sends the browser back: the financing team's callback route. */
  redirectUri: string;
  /** The seller's browser: trusts the CA, presents no certificate. */
  browserFetch: typeof fetch;
  close(): Promise<void>;
}

/** Certificates made now by openssl in a temporary folder (removed at once), as the tests make theirs. */
export function partnerLogin(): PartnerLogin {
  const pki = makeTestPki([FINANCING_CLIENT]);
  const certificate = pki.clients[FINANCING_CLIENT]!;
  const browser = new Agent({ connect: { ca: pki.ca }, connections: 4 });
  return {
    partner: {
      tls: { cert: pki.server.cert, key: pki.server.key, ca: pki.ca },
      clients: [
        {
          clientId: FINANCING_CLIENT,
          redirectUris: [DEMO_CALLBACK],
          auth: { method: 'tls_client_auth', subjectDn: `CN=${FINANCING_CLIENT}` },
        },
      ],
    },
    financing: (issuer) => ({
      tls: { cert: certificate.cert, key: certificate.key, ca: pki.ca },
      oidc: { issuer, redirectUri: DEMO_CALLBACK, clientId: FINANCING_CLIENT, clientAuth: 'tls_client_auth' },
    }),
    redirectUri: DEMO_CALLBACK,
    browserFetch: ((input: string, init?: RequestInit) =>
      undiciFetch(input, { ...(init as object), dispatcher: browser })) as unknown as typeof fetch,
    close: () => browser.close(),
  };
}
