// Issue 13 §2c: a standard OAuth client library (oauth4webapi) gets tokens from both token endpoints with both client authentication methods.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFinancingService, sandboxCreditEngine, toNodeHandler } from '@fin/server-kit';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PartnerPosServer, startPartnerPos } from '../../examples/partner-pos/src/index.js';

/** A secret with the characters RFC 6749 2.3.1 form-urlencodes before base64: `:`, `+`, `/`, `%`, space, non-ASCII. */
const client = { clientId: 'test_oauth:library', clientSecret: 'se:cr+et/%20 é' };

let partner: PartnerPosServer;
let financing: Server;
let financingUrl: string;
const service = createFinancingService({
  clients: [{ ...client, scopes: ['sales:authorize'], storeIds: ['store-001'] }],
  credit: sandboxCreditEngine(),
});

beforeAll(async () => {
  partner = await startPartnerPos({
    size: { stores: 1, productsPerStore: 5, employees: 2 },
    clients: [client],
  });
  financing = createServer(toNodeHandler(service));
  await new Promise<void>((resolve) => financing.listen(0, '127.0.0.1', resolve));
  financingUrl = `http://127.0.0.1:${(financing.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => financing?.close(resolve));
  await service.close();
  await partner?.close();
});

const servers = () => [
  { name: 'financing service (server-kit)', url: financingUrl, scope: 'sales:authorize' },
  { name: 'simulated partner POS', url: partner.url, scope: 'catalog:read sales:read' },
];
const methods = [
  { name: 'client_secret_post', auth: oauth.ClientSecretPost },
  { name: 'client_secret_basic', auth: oauth.ClientSecretBasic },
] as const;

/** Loopback http: oauth4webapi refuses plain http unless told it is allowed. */
const insecure = { [oauth.allowInsecureRequests]: true };

const grant = (url: string, auth: (secret: string) => oauth.ClientAuth, secret: string, scope: string) => {
  const as: oauth.AuthorizationServer = { issuer: url, token_endpoint: `${url}/v1/oauth/token` };
  const oauthClient: oauth.Client = { client_id: client.clientId };
  return oauth
    .clientCredentialsGrantRequest(as, oauthClient, auth(secret), new URLSearchParams({ scope }), insecure)
    .then((response) => oauth.processClientCredentialsResponse(as, oauthClient, response));
};

describe('oauth4webapi against both token endpoints (RFC 6749 4.4, client authentication 2.3.1)', () => {
  for (const method of methods) {
    it(`${method.name}: a Bearer token with the scopes asked, from each server`, async () => {
      for (const server of servers()) {
        const token = await grant(server.url, method.auth, client.clientSecret, server.scope);
        expect(token, server.name).toMatchObject({
          token_type: 'bearer',
          expires_in: 3600,
          scope: server.scope,
        });
        expect(token.access_token.length, server.name).toBeGreaterThan(0);
      }
    });

    it(`${method.name}: a wrong secret is an invalid_client error the library understands`, async () => {
      for (const server of servers()) {
        const failure = await grant(server.url, method.auth, 'wrong', server.scope).catch(
          (error: unknown) => error,
        );
        // A failed Basic authentication carries `WWW-Authenticate: Basic` (RFC 6749 5.2), which the library surfaces.
        if (failure instanceof oauth.WWWAuthenticateChallengeError) {
          expect(method.name, server.name).toBe('client_secret_basic');
          expect(failure.cause[0]?.scheme, server.name).toBe('basic');
        } else {
          expect(failure, server.name).toBeInstanceOf(oauth.ResponseBodyError);
          expect((failure as oauth.ResponseBodyError).error, server.name).toBe('invalid_client');
        }
        expect((failure as { status?: number }).status, server.name).toBe(401);
      }
    });
  }
});
