// Issue 13 §2b: Prism mocks (static examples and dynamic generation) made from each document alone serve our own clients.
import { AuthorizationClient, buildCart } from '@fin/authorization-client';
import { money } from '@fin/core';
import { PosClient, syncCatalog } from '@fin/pos-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PrismServer,
  recordingFetch,
  requestViolations,
  responseViolations,
  startPrism,
} from './prism.js';
import { documents } from './tools.js';

/** Static mocks answer the documents' examples; dynamic ones generate new data for every answer, so run them again. */
const modes = [
  { name: 'static', dynamic: false, runs: 1 },
  { name: 'dynamic', dynamic: true, runs: 5 },
] as const;

const mocks = new Map<string, PrismServer>();
const mockOf = (document: keyof typeof documents, dynamic: boolean) => mocks.get(`${document}:${dynamic}`)!;

beforeAll(async () => {
  const started = await Promise.all(
    (['partnerPos', 'salesAuthorization'] as const).flatMap((document) =>
      modes.map(async ({ dynamic }) => {
        const prism = await startPrism({ mode: 'mock', document: documents[document], dynamic });
        return [`${document}:${dynamic}`, prism] as const;
      }),
    ),
  );
  for (const [key, prism] of started) mocks.set(key, prism);
});
afterAll(async () => {
  await Promise.all([...mocks.values()].map((prism) => prism.close()));
});

const credentials = { clientId: 'retail-chain-01', clientSecret: 'client-secret' };

describe.each(modes)('Prism mock ($name) of the published documents', ({ dynamic, runs }) => {
  it.each(Array.from({ length: runs }, (_, run) => run + 1))(
    '@fin/pos-client runs a whole catalog sync and every real-time call against the Partner POS mock (run %i)',
    async () => {
      const recorder = recordingFetch();
      const pos = new PosClient({
        baseUrl: mockOf('partnerPos', dynamic).url,
        ...credentials,
        maxRetries: 0,
        fetch: recorder.fetch,
      });
      const { snapshot } = await syncCatalog(pos);
      expect(snapshot.stores.length).toBeGreaterThan(0);
      const session = await pos.sellers.login({ cpf: '11144477735', password: 'secret' });
      await pos.sellers.login({ username: 'ana.souza', password: 'secret' });
      const store = pos.store(snapshot.stores[0]!.storeId);
      await store.products.byBarcode('7891234567895');
      await store.services.list({ sku: 'SM-A15-128' });
      await store.stock.get('SM-A15-128');
      await store.imei.validate('490154203237518');
      await pos.sales.search({ taxId: '52998224725' });
      await pos.sales.search({ imei: '490154203237518' });
      const hold = await store.stock.reserve({ imei: '490154203237518' });
      if (hold.supported) {
        await store.stock.reservation(hold.reservation.reservationId);
        await store.stock.extend(hold.reservation.reservationId, { ttlSeconds: 2400 });
        await store.stock.release(hold.reservation.reservationId);
      }
      expect(session.authorized === true || session.authorized === false).toBe(true);
      expect(requestViolations(recorder.exchanges)).toEqual([]);
      expect(responseViolations(recorder.exchanges)).toEqual([]);
    },
  );

  it.each(Array.from({ length: runs }, (_, run) => run + 1))(
    '@fin/authorization-client runs a journey (authorize, confirm, cancel, retrieve) against the Sales Authorization mock (run %i)',
    async () => {
      const recorder = recordingFetch();
      const fin = new AuthorizationClient({
        baseUrl: mockOf('salesAuthorization', dynamic).url,
        ...credentials,
        maxRetries: 0,
        fetch: recorder.fetch,
      });
      const sale = fin.journey();
      const authorization = await sale.authorize(
        buildCart({
          client: { name: 'Maria Oliveira', taxId: '52998224725', phoneNumber: '11987654321' },
          seller: { id: 'V-1001', taxId: '11144477735', name: 'Ana Souza' },
          storeId: 'LJ-0042',
          planId: 'PLANO-CONTROLE-15GB',
          imei: '490154203237518',
          items: [
            {
              sku: 'SM-A15-128',
              productType: 'SMARTPHONE',
              name: 'Galaxy A15',
              quantity: 1,
              unitPrice: money.brl(129900),
            },
          ],
        }),
      );
      const authorizationId = authorization.authorized ? authorization.authorizationId : 'AUT-7f3c2a9e';
      await sale.confirm(authorizationId, {
        saleNumber: 'V-2026-000123',
        invoiceNumber: '1234',
        nfeAccessKey: '35260112345678000195550010000012341000012343',
        invoicedAt: new Date().toISOString(),
      });
      await sale.cancel(authorizationId, { reason: 'EXCHANGE' });
      const state = await fin.retrieve(authorizationId);
      expect(['AUTHORIZED', 'CONFIRMED', 'CANCELLED', 'EXPIRED']).toContain(state.status);
      expect(requestViolations(recorder.exchanges)).toEqual([]);
      expect(responseViolations(recorder.exchanges)).toEqual([]);
    },
  );
});

describe('issue 36 §6: header examples in both documents', () => {
  it.each(['partnerPos', 'salesAuthorization'] as const)(
    'the static mock of %s answers X-Request-Id with a uuid, not the word "string"',
    async (document) => {
      const path = document === 'partnerPos' ? '/v1/stores' : '/v1/sales/AUT-7f3c2a9e';
      const response = await fetch(`${mockOf(document, false).url}${path}`, {
        headers: {
          authorization: 'Bearer token',
          'x-request-id': crypto.randomUUID(),
          'x-correlation-id': crypto.randomUUID(),
        },
      });
      expect(response.headers.get('x-request-id')).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    },
  );
});
