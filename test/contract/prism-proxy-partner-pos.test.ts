// Issue 13 §2a: Prism in proxy mode validates every request and answer of a full Partner POS journey against the document.
import { PosClient, syncCatalog } from '@fin/pos-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PartnerPosServer, startPartnerPos } from '../../examples/partner-pos/src/index.js';
import {
  type PrismServer,
  recordingFetch,
  requestViolations,
  responseViolations,
  startPrism,
} from './prism.js';
import { documents } from './tools.js';

const BURST = { clientId: 'burst-client', clientSecret: 'burst-secret' };
const READS_PER_MINUTE = 150;

let partner: PartnerPosServer;
let prism: PrismServer;
/** Calls that keep the contract: neither their requests nor the answers may violate it. */
const valid = recordingFetch();
/** Deliberately wrong requests (for the 4xx): Prism flags the request; the answer must still keep the contract. */
const wrong = recordingFetch();

beforeAll(async () => {
  partner = await startPartnerPos({
    size: { stores: 2, productsPerStore: 7, employees: 7 },
    clients: [{ clientId: 'financing-service', clientSecret: 'simulated-partner-secret' }, BURST],
    rateLimit: { reads: READS_PER_MINUTE },
  });
  prism = await startPrism({ mode: 'proxy', document: documents.partnerPos, upstream: partner.url });
});
afterAll(async () => {
  await prism?.close();
  await partner?.close();
});

const ids = () => ({ 'x-request-id': crypto.randomUUID(), 'x-correlation-id': crypto.randomUUID() });
const form = (fields: Record<string, string>) =>
  new URLSearchParams({ grant_type: 'client_credentials', ...fields });
const basic = (id: string, secret: string) => `Basic ${btoa(`${id}:${secret}`)}`;

async function bearer(credentials = partner.sim.credentials, scope?: string) {
  const response = await valid.fetch(`${prism.url}/v1/oauth/token`, {
    method: 'POST',
    body: form({
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      ...(scope ? { scope } : {}),
    }),
  });
  return `Bearer ${((await response.json()) as { access_token: string }).access_token}`;
}

describe('Prism proxy in front of the simulated partner POS (docs/openapi/partner-pos.json)', () => {
  it('a full journey through @fin/pos-client: login both shapes, every list paginated to the end, every real-time call', async () => {
    const pos = new PosClient({
      baseUrl: prism.url,
      ...partner.sim.credentials,
      maxRetries: 0,
      fetch: valid.fetch,
    });
    const seller = partner.sim.data.sellers[0]!;
    partner.sim.setLoginShape('status-wrapped');
    expect((await pos.sellers.login({ cpf: seller.cpf, password: seller.password })).authorized).toBe(true);
    partner.sim.setLoginShape('flat');
    expect(
      (await pos.sellers.login({ username: seller.username, password: seller.password })).authorized,
    ).toBe(true);
    expect((await pos.sellers.login({ cpf: seller.cpf, password: 'wrong-password' })).authorized).toBe(false);

    const { snapshot } = await syncCatalog(pos, { pageSize: 3 });
    expect(snapshot.employees.length).toBe(partner.sim.data.sellers.length);
    let pages = 0;
    for await (const _page of pos.stores.list({ pageSize: 1 }).pages()) pages++;
    expect(pages).toBe(partner.sim.data.stores.length);

    const storeId = partner.sim.data.stores[0]!.storeId;
    const store = pos.store(storeId);
    const [entry] = partner.sim.data.products(storeId);
    const device = partner.sim.data.devices({ storeId, inStock: true })[0]!;
    expect((await store.products.byBarcode(entry!.barcode)).sku).toBe(entry!.product.sku);
    await store.services.list({ sku: device.sku });
    await store.stock.get(device.sku);
    expect((await store.imei.validate(device.imei)).inStock).toBe(true);
    // v1.1 stock reservation: hold, read, extend, release twice, and a refused second hold of the IMEI.
    const hold = await store.stock.reserve({ imei: device.imei });
    if (!hold.supported) throw new Error('the simulated partner offers reservations');
    const { reservationId } = hold.reservation;
    await expect(store.stock.reserve({ imei: device.imei })).rejects.toMatchObject({
      code: 'imei_already_reserved',
    });
    expect((await store.stock.get(device.sku)).reserved).toBe(1);
    await store.stock.reservation(reservationId);
    await store.stock.extend(reservationId, { ttlSeconds: 2400 });
    await store.stock.release(reservationId);
    await store.stock.release(reservationId);
    await expect(store.stock.reservation('RSV-999999')).rejects.toMatchObject({
      code: 'reservation_not_found',
    });
    const sale = partner.sim.sales.register({
      imei: device.imei,
      taxId: '52998224725',
      storeId,
      status: 'ACTIVE',
    });
    expect((await pos.sales.search({ taxId: '52998224725' })).map((s) => s.saleNumber)).toContain(
      sale.saleNumber,
    );
    await pos.sales.search({ imei: device.imei });

    expect(requestViolations(valid.exchanges)).toEqual([]);
    expect(responseViolations(valid.exchanges)).toEqual([]);
  });

  it('the token endpoint: form and HTTP Basic, and each refusal it documents', async () => {
    const { clientId, clientSecret } = partner.sim.credentials;
    const token = (init: RequestInit, recorder = valid) =>
      recorder.fetch(`${prism.url}/v1/oauth/token`, { method: 'POST', ...init });
    expect(
      (await token({ headers: { authorization: basic(clientId, clientSecret) }, body: form({}) })).status,
    ).toBe(200);
    expect((await token({ body: form({ client_id: clientId, client_secret: 'wrong' }) })).status).toBe(401);
    expect(
      (await token({ headers: { authorization: basic(clientId, 'wrong') }, body: form({}) })).status,
    ).toBe(401);
    expect(
      (
        await token({
          body: form({ client_id: clientId, client_secret: clientSecret, scope: 'sales:authorize' }),
        })
      ).status,
    ).toBe(400);
    expect((await token({ body: form({ grant_type: 'password' }) }, wrong)).status).toBe(400);
    expect(requestViolations(valid.exchanges)).toEqual([]);
    expect(responseViolations([...valid.exchanges, ...wrong.exchanges])).toEqual([]);
  });

  it('400, 401, 403, 404, 413, 415 and 422 of the catalog, each answer as documented', async () => {
    const token = await bearer();
    const catalogOnly = await bearer(partner.sim.credentials, 'catalog:read');
    const storeId = partner.sim.data.stores[0]!.storeId;
    const get = (path: string, headers: Record<string, string>, recorder = valid) =>
      recorder.fetch(`${prism.url}${path}`, { headers });
    const statuses = [
      (await get('/v1/plans', { ...ids(), authorization: token }, wrong)).status, // R-01
      (await get('/v1/employees', { authorization: token }, wrong)).status, // no request ids
      (await get('/v1/employees', ids(), wrong)).status, // missing_token
      (await get('/v1/employees', { ...ids(), authorization: 'Bearer not-a-token' })).status,
      (await get(`/v1/stock?storeId=${storeId}&sku=X`, { ...ids(), authorization: catalogOnly })).status,
      (await get('/v1/plans?storeId=NO-SUCH-STORE', { ...ids(), authorization: token })).status,
      (
        await get(`/v1/products/barcode?storeId=${storeId}&barcode=000000000`, {
          ...ids(),
          authorization: token,
        })
      ).status,
      (await get('/v1/employees?page=0', { ...ids(), authorization: token }, wrong)).status,
      (
        await valid.fetch(`${prism.url}/v1/sales/search`, {
          method: 'POST',
          headers: { ...ids(), authorization: token, 'content-type': 'application/json' },
          body: JSON.stringify({ taxId: '12345678909' }),
        })
      ).status,
      (
        await wrong.fetch(`${prism.url}/v1/sellers/session`, {
          method: 'POST',
          headers: { ...ids(), authorization: token, 'content-type': 'text/plain' },
          body: 'cpf=11144477735',
        })
      ).status,
      (
        await wrong.fetch(`${prism.url}/v1/sales/search`, {
          method: 'POST',
          headers: { ...ids(), authorization: token, 'content-type': 'application/json' },
          body: JSON.stringify({ taxId: '1'.repeat(70_000) }),
        })
      ).status,
    ];
    expect(statuses).toEqual([400, 400, 401, 401, 403, 404, 404, 422, 404, 415, 413]);
    expect(requestViolations(valid.exchanges)).toEqual([]);
    expect(responseViolations([...valid.exchanges, ...wrong.exchanges])).toEqual([]);
  });

  it('429 with Retry-After once a client spends its reads, as documented', async () => {
    const token = await bearer(BURST);
    const storeId = partner.sim.data.stores[0]!.storeId;
    let limited: Response | undefined;
    for (let sent = 0; sent <= READS_PER_MINUTE && !limited; sent += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () =>
          valid.fetch(`${prism.url}/v1/plans?storeId=${storeId}`, {
            headers: { ...ids(), authorization: token },
          }),
        ),
      );
      limited = batch.find((response) => response.status === 429);
    }
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(requestViolations(valid.exchanges)).toEqual([]);
    expect(responseViolations(valid.exchanges)).toEqual([]);
  });

  it('the check fails loudly: an answer the document does not allow is a violation', async () => {
    const probe = recordingFetch();
    partner.sim.faults.serverErrors({ status: 502, count: 1 });
    const token = await bearer();
    await probe.fetch(`${prism.url}/v1/employees`, { headers: { ...ids(), authorization: token } });
    expect(responseViolations(probe.exchanges)).not.toEqual([]);
  });

  afterAll(() => {
    const all = [...valid.exchanges, ...wrong.exchanges];
    process.stdout.write(
      `Prism proxy (partner POS): ${all.length} exchanges, ${responseViolations(all).length} answer violations\n`,
    );
  });
});
