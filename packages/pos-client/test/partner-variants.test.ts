// Partners who read the spec their own way (issue 18): stock as `quantity`, any 404 code for "no sale", their own request ids, IMEI refusals without a message.
import { FinApiError, FinResponseValidationError, imei as imeiId, isFinApiError } from '@fin/core';
import { imeiRefusalFallbacks, syncCatalog } from '@fin/pos-client';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { BASE_URL, captureLog, startPartner } from './fixtures.js';

const partner = startPartner({ size: { stores: 2, productsPerStore: 60, employees: 12 } });
afterAll(partner.close);
afterEach(() => {
  partner.sim.partner.reset();
  partner.server.resetHandlers();
});
const { sim } = partner;
const store = sim.data.stores[1]!;
const sku = sim.data.products(store.storeId)[0]!.product.sku;

describe('DESIGN 8: GET /v1/stock under either name', () => {
  test.each(['stock', 'quantity'] as const)(
    'a partner naming the count `%s`: store.stock.get answers `stock`',
    async (stockField) => {
      sim.partner.set({ stockField });
      sim.catalog.setStock(store.storeId, sku, 4);
      const level = await partner.client().store(store.storeId).stock.get(sku);
      expect(level).toEqual({ sku, storeId: store.storeId, stock: 4, updatedAt: expect.any(String) });
      expect(level).not.toHaveProperty('quantity');
    },
  );

  test('a count under neither name fails loudly at data.stock', async () => {
    partner.server.use(
      http.get(`${BASE_URL}/v1/stock`, () =>
        HttpResponse.json({
          success: true,
          message: '',
          timestamp: new Date().toISOString(),
          data: { sku, storeId: store.storeId, updatedAt: new Date().toISOString() },
        }),
      ),
    );
    const failure = await partner
      .client()
      .store(store.storeId)
      .stock.get(sku)
      .catch((error) => error);
    expect(failure).toBeInstanceOf(FinResponseValidationError);
    expect((failure as FinResponseValidationError).issues.map((issue) => issue.path)).toEqual(['data.stock']);
  });
});

describe('P-8: no sale found, whatever the 404 says', () => {
  const unsold = sim.data.devices({ storeId: store.storeId, inStock: true })[0]!.imei;

  test.each(['resource_not_found', 'sale_not_found', 'not_found'])(
    'a 404 `%s` from sale search is an empty result, by IMEI and by CPF',
    async (saleNotFoundCode) => {
      sim.partner.set({ saleNotFoundCode });
      const pos = partner.client();
      expect(await pos.sales.search({ imei: unsold })).toEqual([]);
      expect(await pos.sales.search({ taxId: '52998224725' })).toEqual([]);
      expect(sim.requests.count({ endpoint: 'POST /v1/sales/search', status: 404 })).toBeGreaterThanOrEqual(
        2,
      );
    },
  );

  test('a 404 that is not an error envelope (a wrong baseUrl) still throws', async () => {
    partner.server.use(
      http.post(`${BASE_URL}/v1/sales/search`, () => new HttpResponse('<h1>Not Found</h1>', { status: 404 })),
    );
    await expect(partner.client({ maxRetries: 0 }).sales.search({ imei: unsold })).rejects.toMatchObject({
      name: 'FinResponseParseError',
      status: 404,
    });
  });

  test('other errors of sale search still throw', async () => {
    sim.faults.serverErrors({ endpoint: 'POST /v1/sales/search', count: 1 });
    await expect(partner.client({ maxRetries: 0 }).sales.search({ imei: unsold })).rejects.toMatchObject({
      code: 'service_unavailable',
      status: 503,
    });
  });
});

describe('one request id: the one the client sent, the partner’s own beside it', () => {
  const sentIds = (entries: unknown[]) =>
    (entries as { event: string; requestId: string; path: string }[])
      .filter((entry) => entry.event === 'http.request' && entry.path === '/v1/stock')
      .map((entry) => entry.requestId);
  /** An unknown SKU's 404, read by a client logging to `log`. */
  const unknownSku = (log: ReturnType<typeof captureLog>) =>
    partner
      .client({ logger: log.logger, maxRetries: 0 })
      .store(store.storeId)
      .stock.get('NOPE')
      .catch((error: unknown) => error);

  test('a partner that does not echo X-Request-Id: the error carries the sent id as requestId and the partner’s as serverRequestId', async () => {
    sim.partner.set({ echoRequestId: false });
    const log = captureLog();
    const failure = await unknownSku(log);
    expect(isFinApiError(failure, 'resource_not_found')).toBe(true);
    const error = failure as FinApiError;
    expect(sentIds(log.entries)).toEqual([error.requestId]);
    expect(error.serverRequestId).toEqual(expect.any(String));
    expect(error.serverRequestId).not.toBe(error.requestId);
    expect(error.headers['x-request-id']).toBe(error.serverRequestId);
    expect(error.toJSON()).toMatchObject({
      requestId: error.requestId,
      serverRequestId: error.serverRequestId,
    });
    // The response log line carries both, so the client's logs and the partner's can be joined.
    expect(log.entries).toContainEqual(
      expect.objectContaining({
        event: 'http.response',
        requestId: error.requestId,
        serverRequestId: error.serverRequestId,
      }),
    );
  });

  test('a partner that echoes it: one id, no serverRequestId', async () => {
    const log = captureLog();
    const failure = await unknownSku(log);
    expect(failure).toBeInstanceOf(FinApiError);
    expect(sentIds(log.entries)).toEqual([(failure as FinApiError).requestId]);
    expect((failure as FinApiError).serverRequestId).toBeUndefined();
  });
});

describe('R-05: an IMEI refusal without a message', () => {
  const onShelf = sim.data.devices({ storeId: store.storeId, inStock: true })[0]!;
  const sold = sim.data.devices({ storeId: store.storeId, inStock: false })[0]!;
  const elsewhere = sim.data.devices({ storeId: sim.data.stores[0]!.storeId })[0]!;
  const badLuhn = `${onShelf.imei.slice(0, 14)}${(Number(onShelf.imei[14]) + 1) % 10}`;

  test.each(['empty', 'missing'] as const)(
    'a partner sending the message %s: the seller reads the client’s pt-BR reason, by what the flags tell',
    async (imeiRefusalMessage) => {
      expect(imeiId.isValid(badLuhn)).toBe(false);
      sim.partner.set({ imeiRefusalMessage });
      const log = captureLog();
      const scope = partner.client({ logger: log.logger }).store(store.storeId);
      expect((await scope.imei.validate(badLuhn)).message).toBe(imeiRefusalFallbacks.invalidImei);
      expect((await scope.imei.validate(elsewhere.imei)).message).toBe(imeiRefusalFallbacks.otherStore);
      expect((await scope.imei.validate(sold.imei)).message).toBe(imeiRefusalFallbacks.notInStock);
      // An accepted IMEI is no refusal: left as the partner sent it.
      expect((await scope.imei.validate(onShelf.imei)).message).toBe('Aparelho disponível para venda.');

      const warnings = (log.entries as { event: string }[]).filter(
        (entry) => entry.event === 'pos.imei_refusal_without_message',
      );
      expect(warnings).toHaveLength(3);
      expect(warnings[0]).toMatchObject({
        partnerMessage: imeiRefusalMessage,
        fallback: 'invalidImei',
        storeId: store.storeId,
        requestId: expect.any(String),
      });
      for (const imei of [badLuhn, elsewhere.imei, sold.imei]) expect(log.text()).not.toContain(imei);
    },
  );

  test('the three fallbacks are distinct, operational pt-BR sentences', () => {
    const texts = Object.values(imeiRefusalFallbacks);
    expect(new Set(texts).size).toBe(3);
    for (const text of texts) expect(text).toMatch(/^[A-Z].{20,}\.$/);
  });

  test('a partner’s own refusal message reaches the seller untouched, with no warning', async () => {
    const log = captureLog();
    const answer = await partner.client({ logger: log.logger }).store(store.storeId).imei.validate(sold.imei);
    expect(answer.message).toBe('Aparelho já vendido: não está mais no estoque.');
    expect(log.text()).not.toContain('pos.imei_refusal_without_message');
  });
});

describe('syncCatalog with such a partner', () => {
  test('every variant at once: the same snapshot as from a partner with our defaults', async () => {
    const clock = { now: () => new Date('2026-03-02T06:00:00.000Z') };
    const reference = await syncCatalog(partner.client(), { clock });
    sim.partner.set({
      stockField: 'quantity',
      saleNotFoundCode: 'sale_not_found',
      echoRequestId: false,
      imeiRefusalMessage: 'missing',
    });
    const variant = await syncCatalog(partner.client(), { clock });
    expect(variant.snapshot).toEqual(reference.snapshot);
    expect(variant.diff.departures).toEqual([]);
  });

  test('a sync that fails against a non-echoing partner names the id the client sent and the partner’s', async () => {
    sim.partner.set({ echoRequestId: false });
    sim.faults.serverErrors({ endpoint: 'GET /v1/stores', status: 500, count: 1 });
    const log = captureLog();
    const failure = await syncCatalog(partner.client({ logger: log.logger, maxRetries: 0 })).catch(
      (error) => error,
    );
    expect(isFinApiError(failure, 'internal_error')).toBe(true);
    const sent = (log.entries as { event: string; path: string; requestId: string }[]).filter(
      (entry) => entry.event === 'http.request' && entry.path === '/v1/stores',
    );
    expect(sent.map((entry) => entry.requestId)).toEqual([(failure as FinApiError).requestId]);
    expect((failure as FinApiError).serverRequestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
