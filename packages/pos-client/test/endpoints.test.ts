// Every Partner POS endpoint through PosClient against the simulated partner, with its 404, 422 and R-01 errors.
import { FinInputError, imei as imeiId, isFinApiError, schemas } from '@fin/core';
import { http } from 'msw';
import { afterAll, describe, expect, test } from 'vitest';
import { BASE_URL, startPartner } from './fixtures.js';

const partner = startPartner({ size: { stores: 3, productsPerStore: 120, employees: 75 } });
afterAll(partner.close);
const { sim } = partner;
const pos = partner.client();
const store = sim.data.stores[1]!;
const catalog = sim.data.products(store.storeId);

describe('catalog lists', () => {
  test('GET /v1/employees lists every active employee across pages, without credentials', async () => {
    const list = pos.employees.list({ pageSize: 20 });
    const pages = [];
    for await (const page of list.pages()) pages.push(page);
    expect(pages.map((page) => page.pagination.page)).toEqual([1, 2, 3, 4]);
    const employees = await list.toArray();
    expect(employees.map((employee) => employee.cpf)).toEqual(sim.data.sellers.map((seller) => seller.cpf));
    expect(employees[0]).not.toHaveProperty('password');
    expect(employees[0]).not.toHaveProperty('username');
  });

  test('GET /v1/stores lists every store', async () => {
    expect(await pos.stores.list().toArray()).toEqual(sim.data.stores);
  });

  test('GET /v1/plans lists the plans of a store; an unknown store is 404 store_not_found', async () => {
    expect(await pos.store(store.storeId).plans.list()).toEqual(sim.data.plans);
    await expect(pos.store('LJ-9999').plans.list()).rejects.toMatchObject({
      code: 'store_not_found',
      status: 404,
    });
  });

  test('GET /v1/products lists a plan without stock; an unknown plan is 404 resource_not_found', async () => {
    const planId = sim.data.plans[1]!.planId;
    const products = await pos.store(store.storeId).products.list({ planId, pageSize: 15 }).toArray();
    const expected = catalog.filter((entry) => entry.planIds.includes(planId)).map((entry) => entry.product);
    expect(products).toEqual(expected);
    expect(products.every((product) => product.stock === undefined)).toBe(true);
    await expect(
      pos.store(store.storeId).products.list({ planId: 'PLAN-NONE' }).toArray(),
    ).rejects.toMatchObject({ code: 'resource_not_found', status: 404 });
  });
});

describe('real-time lookups', () => {
  test('R-04: GET /v1/products/barcode answers the product with current stock; an unknown barcode is 404', async () => {
    const accessory = catalog.find((entry) => entry.product.productType === 'ACCESSORY')!;
    sim.catalog.setStock(store.storeId, accessory.product.sku, 7);
    const found = await pos.store(store.storeId).products.byBarcode(accessory.barcode);
    expect(found).toEqual({ ...accessory.product, stock: 7 });
    await expect(pos.store(store.storeId).products.byBarcode('0000000000')).rejects.toMatchObject({
      code: 'resource_not_found',
      status: 404,
    });
  });

  test('R-04: GET /v1/products/barcode with a barcode under 6 characters is 422', async () => {
    await expect(pos.store(store.storeId).products.byBarcode('123')).rejects.toMatchObject({
      code: 'validation_error',
      status: 422,
      details: [expect.objectContaining({ field: 'barcode' })],
    });
  });

  test('GET /v1/services lists the services of a smartphone SKU; an unknown SKU is 404', async () => {
    const services = await pos.store(store.storeId).services.list({ sku: 'SM-000001' });
    expect(services.map((service) => service.type)).toEqual(['EXTENDED_WARRANTY', 'INSURANCE', 'PROTECTION']);
    expect(services.every((service) => Number.isInteger(service.price.amount))).toBe(true);
    await expect(pos.store(store.storeId).services.list({ sku: 'SM-999999' })).rejects.toMatchObject({
      code: 'resource_not_found',
      status: 404,
    });
  });

  test('DESIGN 8: GET /v1/stock answers { sku, storeId, stock, updatedAt }; an unknown SKU is 404', async () => {
    sim.catalog.setStock(store.storeId, 'SM-000002', 3);
    const stock = await pos.store(store.storeId).stock.get('SM-000002');
    expect(stock).toEqual({
      sku: 'SM-000002',
      storeId: store.storeId,
      stock: 3,
      updatedAt: expect.any(String),
    });
    expect(schemas.stockLevel.parse(stock)).toEqual(stock);
    await expect(pos.store(store.storeId).stock.get('NOPE')).rejects.toMatchObject({
      code: 'resource_not_found',
    });
  });

  test('R-05: GET /v1/imei/validate resolves a shelf IMEI, and explains a sold, foreign or invalid one', async () => {
    const onShelf = sim.data.devices({ storeId: store.storeId, inStock: true })[0]!;
    const sold = sim.data.devices({ storeId: store.storeId, inStock: false })[0]!;
    const elsewhere = sim.data.devices({ storeId: sim.data.stores[0]!.storeId })[0]!;
    const scope = pos.store(store.storeId);
    expect(await scope.imei.validate(onShelf.imei)).toMatchObject({
      imeiValid: true,
      inStock: true,
      sku: onShelf.sku,
    });
    expect(await scope.imei.validate(sold.imei)).toMatchObject({
      imeiValid: true,
      inStock: false,
      sku: sold.sku,
    });
    expect(await scope.imei.validate(elsewhere.imei)).toMatchObject({ imeiValid: true, inStock: false });
    const badLuhn = `${onShelf.imei.slice(0, 14)}${(Number(onShelf.imei[14]) + 1) % 10}`;
    expect(imeiId.isValid(badLuhn)).toBe(false);
    const refused = await scope.imei.validate(badLuhn);
    expect(refused).toMatchObject({ imeiValid: false, inStock: false });
    expect(refused.message).toMatch(/IMEI/);
  });

  test('R-05: an IMEI that is not 15 digits is 422 validation_error', async () => {
    await expect(pos.store(store.storeId).imei.validate('12345')).rejects.toMatchObject({
      code: 'validation_error',
      status: 422,
    });
  });
});

describe('sale search', () => {
  const sale = sim.data.sales.find((record) => record.sale.status === 'ACTIVE')!;

  test('POST /v1/sales/search by CPF or by IMEI finds the sale, with its 44-digit NF-e key', async () => {
    const byCpf = await pos.sales.search({ taxId: sale.taxId });
    const byImei = await pos.sales.search({ imei: sale.imei });
    expect(byCpf).toEqual([sale.sale]);
    expect(byImei).toEqual([sale.sale]);
    expect(byImei[0]!.nfeAccessKey).toMatch(/^[0-9]{44}$/);
  });

  test('the CPF travels in the body, never in the URL; a search is a read, with no Idempotency-Key', async () => {
    const seen: Request[] = [];
    partner.server.events.on('request:start', ({ request }) => {
      seen.push(request);
    });
    await pos.sales.search({ taxId: sale.taxId });
    partner.server.events.removeAllListeners('request:start');
    const search = seen.find((request) => request.url.endsWith('/v1/sales/search'))!;
    expect(search.method).toBe('POST');
    expect(seen.map((request) => request.url).join(' ')).not.toContain(sale.taxId);
    expect(search.headers.get('idempotency-key')).toBeNull();
  });

  test('no sale found is an empty list (the partner answers 404)', async () => {
    const before = sim.requests.count({ endpoint: 'POST /v1/sales/search', status: 404 });
    expect(await pos.sales.search({ imei: sim.data.devices({ inStock: true })[0]!.imei })).toEqual([]);
    expect(sim.requests.count({ endpoint: 'POST /v1/sales/search', status: 404 })).toBe(before + 1);
  });

  test('exactly one of taxId or imei: both or neither is refused before any request', async () => {
    const before = sim.requests.count();
    // @ts-expect-error both criteria at once is refused by the type
    await expect(pos.sales.search({ taxId: sale.taxId, imei: sale.imei })).rejects.toMatchObject({
      code: 'validation_error',
    });
    // @ts-expect-error no criterion is refused by the type
    await expect(pos.sales.search({})).rejects.toMatchObject({ code: 'validation_error' });
    expect(sim.requests.count()).toBe(before);
  });

  test('a malformed CPF is the partner’s 422 validation_error', async () => {
    await expect(pos.sales.search({ taxId: '123' })).rejects.toMatchObject({
      code: 'validation_error',
      status: 422,
    });
  });
});

describe('R-01: store context', () => {
  test('R-01: pos.store() without a usable storeId throws synchronously, before any request', () => {
    const before = sim.requests.count();
    expect(() => pos.store('')).toThrow(FinInputError);
    expect(() => pos.store('')).toThrow(
      expect.objectContaining({ code: 'store_context_required', status: 400 }),
    );
    expect(() => pos.store('   ')).toThrow(expect.objectContaining({ code: 'store_context_required' }));
    // @ts-expect-error a storeId is required by the type
    expect(() => pos.store()).toThrow(expect.objectContaining({ code: 'store_context_required' }));
    expect(() => pos.store('L'.repeat(65))).toThrow(expect.objectContaining({ code: 'validation_error' }));
    expect(sim.requests.count()).toBe(before);
  });

  test('R-01: a partner answering store_context_required surfaces as that typed error', async () => {
    // A partner that lost the store context: the storeId never reaches the simulation.
    partner.server.use(
      http.get(
        `${BASE_URL}/v1/stock`,
        ({ request }) => {
          const url = new URL(request.url);
          url.searchParams.delete('storeId');
          return sim.fetch(new Request(url, { headers: request.headers }));
        },
        { once: true },
      ),
    );
    const error = await pos
      .store(store.storeId)
      .stock.get('SM-000001')
      .catch((caught: unknown) => caught);
    expect(isFinApiError(error, 'store_context_required')).toBe(true);
    expect(error).toMatchObject({ status: 400, legacyCode: 'FA1006' });
  });
});

describe('envelope headers', () => {
  test('each page echoes its X-Request-Id and reports X-Processing-Time-Ms', async () => {
    for await (const page of pos.stores.list({ pageSize: 1 }).pages()) {
      expect(page.meta.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(page.meta.processingTimeMs).toBeGreaterThanOrEqual(0);
    }
  });
});
