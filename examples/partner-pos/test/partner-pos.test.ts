// The simulated partner over real loopback HTTP: PosClient logs in, syncs, looks up and searches through node:http.
import { isFinApiError } from '@fin/core';
import { PosClient, syncCatalog } from '@fin/pos-client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type PartnerPosServer, startPartnerPos } from '../src/index.js';

let partner: PartnerPosServer;
let pos: PosClient;

beforeAll(async () => {
  partner = await startPartnerPos({ size: { stores: 2, productsPerStore: 60, employees: 40 } });
  pos = new PosClient({
    baseUrl: partner.url,
    ...partner.sim.credentials,
    rateLimit: false,
    timeoutMs: 2_000,
  });
});
afterAll(() => partner.close());

describe('examples/partner-pos on 127.0.0.1', () => {
  test('listens on loopback only', () => {
    expect(partner.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('a seller logs in and reads their store over HTTP', async () => {
    const seller = partner.sim.data.sellers[0]!;
    const login = await pos.sellers.login({ username: seller.username, password: seller.password });
    if (!login.authorized) throw new Error('expected a session');
    expect(login.session.storeId).toBe(seller.storeId);
    expect(await pos.store(login.session.storeId).plans.list()).toEqual(partner.sim.data.plans);
  });

  test('a whole sync reads every item through the server', async () => {
    const { snapshot } = await syncCatalog(pos);
    expect(snapshot.employees).toHaveLength(40);
    expect(snapshot.stores).toEqual(partner.sim.data.stores);
    expect(snapshot.products.length).toBeGreaterThan(0);
  });

  test('R-08 support: a sale registered for an IMEI and flipped to CANCELLED is what sale search reads', async () => {
    const device = partner.sim.data.devices({ inStock: true })[0]!;
    const customer = '52998224725';
    const registered = partner.sim.sales.register({ imei: device.imei, taxId: customer, status: 'ACTIVE' });
    expect(await pos.sales.search({ imei: device.imei })).toEqual([registered]);
    const cancelled = partner.sim.sales.setStatus({ saleNumber: registered.saleNumber }, 'CANCELLED');
    const [found] = await pos.sales.search({ taxId: customer });
    expect(found).toEqual(cancelled);
    expect(found).toMatchObject({ status: 'CANCELLED', nfeAccessKey: registered.nfeAccessKey });
  });

  test('stock reservation (v1.1) over HTTP: hold, refused second hold of the IMEI, release twice; then a partner without it', async () => {
    const storeId = partner.sim.data.stores[1]!.storeId;
    const device = partner.sim.data.devices({ storeId, inStock: true })[0]!;
    partner.sim.catalog.setStock(storeId, device.sku, 3);
    const store = pos.store(storeId);
    const hold = await store.stock.reserve({ imei: device.imei });
    if (!hold.supported) throw new Error('expected a partner with reservations');
    await expect(store.stock.reserve({ imei: device.imei })).rejects.toMatchObject({
      code: 'imei_already_reserved',
      status: 409,
    });
    const { reservationId } = hold.reservation;
    expect((await store.stock.release(reservationId)).supported && 'RELEASED').toBe('RELEASED');
    const again = await store.stock.release(reservationId);
    expect(again.supported && again.reservation.state).toBe('RELEASED');
    partner.sim.partner.set({ reservations: 'not-implemented' });
    try {
      const other = new PosClient({ baseUrl: partner.url, ...partner.sim.credentials, rateLimit: false });
      expect(await other.store(storeId).stock.reserve({ imei: device.imei })).toEqual({ supported: false });
    } finally {
      partner.sim.partner.reset();
    }
  });

  test('errors keep their envelope over HTTP: 404 store_not_found, 422, R-01', async () => {
    await expect(pos.store('LJ-0404').plans.list()).rejects.toMatchObject({
      code: 'store_not_found',
      status: 404,
    });
    await expect(pos.store(partner.sim.data.stores[0]!.storeId).imei.validate('1')).rejects.toMatchObject({
      code: 'validation_error',
      status: 422,
    });
  });

  test('a response slower than the client timeout is abandoned, retried, and the server carries on', async () => {
    const impatient = new PosClient({
      baseUrl: partner.url,
      ...partner.sim.credentials,
      rateLimit: false,
      timeoutMs: 300,
    });
    partner.sim.faults.slowResponses({ endpoint: 'GET /v1/stores', count: 1, delayMs: 3_000 });
    expect(await impatient.stores.list().toArray()).toEqual(partner.sim.data.stores);
    expect(partner.sim.requests.count({ endpoint: 'GET /v1/stores', status: 499 })).toBe(1);
  });

  test('malformed JSON over HTTP is a typed error naming the endpoint', async () => {
    partner.sim.faults.malformedJson({ endpoint: 'GET /v1/employees' });
    const error = await pos.employees
      .list()
      .toArray()
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'FinResponseParseError', endpoint: 'GET /v1/employees' });
    expect(isFinApiError(error)).toBe(false);
  });
});
