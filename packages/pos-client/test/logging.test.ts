// The log of a whole sync, logins and real-time calls holds no CPF, IMEI, password, secret or token in clear.
import { syncCatalog } from '@fin/pos-client';
import { afterAll, expect, test } from 'vitest';
import { captureLog, inVirtualTime, startPartner } from './fixtures.js';

const partner = startPartner({ size: { stores: 2, productsPerStore: 200, employees: 250 } });
afterAll(partner.close);
const { sim } = partner;

test('spec section 1: a captured log of login, sync and real-time calls masks personal data and drops credentials', async () => {
  const log = captureLog();
  const seller = sim.data.sellers[7]!;
  const device = sim.data.devices({ inStock: true })[0]!;
  const sale = sim.data.sales[0]!;
  // Faults make the log say more: retries, a token replay, a pagination warning.
  sim.faults.serverErrors({ endpoint: 'GET /v1/products', after: 1, count: 1 });

  await inVirtualTime(async () => {
    const pos = partner.client({ logger: log.logger, rateLimit: undefined });
    const session = await pos.sellers.login({ cpf: seller.cpf, password: seller.password });
    await pos.sellers.login({ username: seller.username, password: 'typo-in-the-password' });
    sim.tokens.expire();
    await syncCatalog(pos);
    const store = pos.store(device.storeId);
    await store.imei.validate(device.imei);
    await store.stock.get(device.sku);
    await pos.sales.search({ taxId: sale.taxId });
    await pos.sales.search({ imei: sale.imei });
    await store.imei.validate('123').catch(() => undefined);
    const list = pos.employees.list({ pageSize: 100, onInconsistency: 'warn' });
    for await (const page of list.pages()) if (page.pagination.page === 1) sim.employees.remove({ count: 1 });
    expect(session.authorized).toBe(true);
  });

  const text = log.text();
  expect(log.entries.length).toBeGreaterThan(50);
  expect(text).toContain('http.retry');
  expect(text).toContain('http.token_replay');
  expect(text).toContain('pagination.inconsistent');
  const secrets = [
    seller.password,
    'typo-in-the-password',
    sim.credentials.clientSecret,
    seller.cpf,
    sale.taxId,
    device.imei,
    sale.imei,
    ...sim.data.sellers.map((employee) => employee.cpf),
  ];
  for (const secret of secrets) expect(text).not.toContain(secret);
  // Every system token the partner issues starts `simpos_`, every seller session token `simsess_`.
  expect(text).not.toMatch(/simpos_|simsess_/);
});
