// Hostile input against the server-kit service, on memory and PostgreSQL: any body, header or query answers an envelope with a catalog code, never a 500.
import { type FinancingService, memoryStore, type Store } from '@fin/server-kit';
import { migrate, postgresStore } from '@fin/server-kit/postgres';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePostgres } from '../support/postgres.js';
import { jsonWriteHeaders } from '../support/write-headers.js';
import { answered, assertEnvelope } from './support/envelope-check.js';
import {
  CUSTOMER_CPF,
  cartFor,
  imeiStream,
  PARTNER_A,
  reliabilityService,
  SELLER_CPF,
} from './support/financing.js';
import { headerValue, hostileBody, hostileQuery } from './support/hostile.js';
import { guardSecrets } from './support/secret-guard.js';
import { checkTokenForms } from './support/token-form-property.js';

const RUNS = 60;
const BASE = 'http://financing.test';
const guard = guardSecrets();
guard.add('client secret', PARTNER_A.clientSecret);
guard.add('cpf', CUSTOMER_CPF, SELLER_CPF);
const database = usePostgres();

const tokenForm = () =>
  new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: PARTNER_A.clientId,
    client_secret: PARTNER_A.clientSecret,
    scope: 'sales:authorize',
  });

const confirmBody = {
  saleNumber: 'SALE-1',
  invoiceNumber: 'NF-1',
  nfeAccessKey: '35260312345678000190550010000000011000000019',
  invoicedAt: '2026-03-02T15:01:00.000Z',
};

function describeHostileInput(name: string, makeStore: () => Promise<Store>): void {
  describe(`hostile input to the financing service (server-kit) on ${name}`, () => {
    let service: FinancingService;
    const nextImei = imeiStream(87);
    let token = '';
    let authorizationId = '';

    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      service.fetch(
        new Request(`${BASE}${path}`, {
          method: 'POST',
          headers: jsonWriteHeaders(token, headers),
          body,
        }),
      );

    beforeAll(async () => {
      // Limits out of the way: this file is about input, the abuse suite tests the limits.
      service = reliabilityService({
        store: await makeStore(),
        logger: guard.logger,
        limits: { writesPerMinute: 1_000_000, tokensPerMinute: 1_000_000, tokenFailuresPerMinute: 1_000_000 },
      });
      const response = await service.fetch(
        new Request(`${BASE}/v1/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: tokenForm(),
        }),
      );
      token = ((await response.json()) as { access_token: string }).access_token;
      guard.add('token', token);
      const deviceImei = nextImei();
      guard.add('imei', deviceImei);
      const authorized = await post(
        '/v1/sales/authorize',
        JSON.stringify(cartFor(deviceImei, PARTNER_A.storeId)),
      );
      authorizationId = ((await authorized.json()) as { data: { authorizationId: string } }).data
        .authorizationId;
      expect(authorizationId).toBeTruthy();
    });

    afterAll(() => service.close());

    it('POST /v1/sales/authorize: any body (wrong types, bad money, huge, deep, duplicate keys) answers an envelope with a catalog code', async () => {
      const base = cartFor('490154203237518', PARTNER_A.storeId);
      await fc.assert(
        fc.asyncProperty(hostileBody(base as never), async (body) => {
          assertEnvelope(await answered(await post('/v1/sales/authorize', body)));
        }),
        { numRuns: RUNS * 2 },
      );
    });

    it.each([
      ['confirm', confirmBody],
      ['cancel', { reason: 'EXCHANGE', description: 'troca' }],
    ])(
      'POST /v1/sales/{id}/%s: any body and any id answer an envelope with a catalog code',
      async (action, base) => {
        const id = fc.oneof(
          fc.constant(authorizationId),
          fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
          fc.constantFrom('%', '..', '%2F', 'x'.repeat(300)),
        );
        await fc.assert(
          fc.asyncProperty(id, hostileBody(base as never), async (authorization, body) => {
            assertEnvelope(await answered(await post(`/v1/sales/${authorization}/${action}`, body)));
          }),
          { numRuns: RUNS },
        );
      },
    );

    it('any query string, method or path answers an envelope with a catalog code', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            '/v1/sales/authorize',
            `/v1/sales/${authorizationId}/confirm`,
            '/v1/unknown',
            '/',
            '/v2/sales/authorize',
          ),
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
          hostileQuery(['storeId', 'imei', 'cpf'], {}),
          async (path, method, query) => {
            const response = await service.fetch(
              new Request(`${BASE}${path}?${query}`, {
                method,
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                ...(method === 'GET' ? {} : { body: '{}' }),
              }),
            );
            assertEnvelope(await answered(response));
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('any headers (bearer, Idempotency-Key, request ids, content type) answer an envelope with a catalog code', async () => {
      const header = fc.option(headerValue, { nil: undefined });
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            authorization: fc.oneof(
              header,
              fc.constant(`Bearer ${token}`),
              headerValue.map((v) => `Bearer ${v}`),
            ),
            'idempotency-key': fc.oneof(header, fc.uuid()),
            'x-request-id': fc.oneof(header, fc.uuid()),
            'x-correlation-id': fc.oneof(header, fc.uuid()),
            'content-type': fc.oneof(
              header,
              fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1'),
            ),
          }),
          async (headers) => {
            const deviceImei = nextImei();
            guard.add('imei', deviceImei);
            const defined = Object.fromEntries(
              Object.entries(headers).filter(([, v]) => v !== undefined),
            ) as Record<string, string>;
            const response = await service.fetch(
              new Request(`${BASE}/v1/sales/authorize`, {
                method: 'POST',
                headers: defined,
                body: JSON.stringify(cartFor(deviceImei, PARTNER_A.storeId)),
              }),
            );
            assertEnvelope(await answered(response));
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('POST /v1/oauth/token: any form answers a token or an RFC 6749 error body with a catalog code', async () => {
      await checkTokenForms(
        {
          fetch: (request) => service.fetch(request),
          url: `${BASE}/v1/oauth/token`,
          clientId: PARTNER_A.clientId,
          clientSecret: PARTNER_A.clientSecret,
        },
        guard,
        RUNS * 2,
      );
    });
  });
}

describeHostileInput('memoryStore()', async () => memoryStore());
describeHostileInput('postgresStore()', async () => {
  const connectionString = await database.createDatabase();
  await migrate({ connectionString });
  return postgresStore({ connectionString });
});
