// examples/pos-checkout against a started financing service: financed, declined, refused by code.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { AuthorizationClient, type CartInput } from '@fin/authorization-client';
import { magicValues } from '@fin/authorization-client/testing';
import { money } from '@fin/core';
import { type RunningFinancingService, startFinancingService } from '@fin/example-financing-service';
import { type PartnerPosServer, startPartnerPos } from '@fin/example-partner-pos';
import { confirmationFromSale } from '@fin/server-kit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkout } from '../src/index.js';

let partner: PartnerPosServer;
let financing: RunningFinancingService;
let fin: AuthorizationClient;
let storeId: string;
let devices: string[];

beforeAll(async () => {
  partner = await startPartnerPos({ size: { stores: 1, productsPerStore: 40, employees: 5 } });
  financing = await startFinancingService({
    partnerPosUrl: partner.url,
    partnerPosCredentials: partner.sim.credentials,
    posVendor: magicValues.credentials,
    posClient: { rateLimit: false },
  });
  fin = new AuthorizationClient({ baseUrl: financing.url, ...magicValues.credentials, maxRetries: 0 });
  storeId = financing.storeIds[0]!;
  devices = partner.sim.data.devices({ storeId, inStock: true }).map((device) => device.imei);
});
afterAll(async () => {
  await financing?.close();
  await partner?.close();
});

const order = (taxId: string, device: string, cents = 180_000): CartInput => ({
  client: { name: 'Cliente', taxId, phoneNumber: '11987654321' },
  seller: { id: 'SEL-1', taxId: '11144477735', name: 'Vendedor' },
  storeId,
  planId: 'PLAN-PRE',
  imei: device,
  items: [
    { sku: 'SM-1', productType: 'SMARTPHONE', name: 'Phone', quantity: 1, unitPrice: money.brl(cents) },
  ],
});

/** The POS's invoicing: the partner POS records the sale as invoiced (ACTIVE); its NF-e data confirm it. */
const invoiceAtPartner = (taxId: string, device: string) => async () =>
  confirmationFromSale(partner.sim.sales.register({ imei: device, taxId, storeId, status: 'ACTIVE' }))!;

describe('examples/pos-checkout', () => {
  it('authorizes, invoices only then, and confirms: a contract whose installments add up to the cent', async () => {
    const result = await checkout(
      fin,
      order('12345678909', devices[0]!),
      invoiceAtPartner('12345678909', devices[0]!),
    );
    if (result.outcome !== 'financed') throw new Error(`expected financed, got ${result.outcome}`);
    expect(result.contract).toMatchObject({ status: 'CONFIRMED', principal: money.brl(180_000) });
    expect(money.sum(result.contract.installments.map((i) => i.amount))).toEqual(money.brl(180_000));
  });

  it('R-07: a credit refusal is a declined outcome, and the POS never invoices', async () => {
    const invoice = vi.fn();
    const result = await checkout(fin, order(magicValues.cpf.declined, devices[1]!), invoice);
    expect(result).toMatchObject({ outcome: 'declined', declineReason: magicValues.declineReason });
    expect(invoice).not.toHaveBeenCalled();
  });

  it('R-02 and R-10: total_mismatch and imei_already_financed come back as refusals with the catalog’s advice', async () => {
    await financing.service.proposals.approve({
      clientTaxId: '98765432100',
      storeId,
      amount: money.brl(150_000),
    });
    const mismatch = await checkout(fin, order('98765432100', devices[1]!, 150_100), vi.fn());
    expect(mismatch).toMatchObject({ outcome: 'refused', code: 'total_mismatch', status: 422 });
    expect(mismatch).toHaveProperty('action', expect.stringContaining('authorize again'));

    const twice = await checkout(fin, order('45612378955', devices[0]!), vi.fn()); // financed in the first test
    expect(twice).toMatchObject({ outcome: 'refused', code: 'imei_already_financed' });
  });

  it('other API errors are thrown, not swallowed: invalid_client', async () => {
    const stranger = new AuthorizationClient({
      baseUrl: financing.url,
      clientId: 'test_x',
      clientSecret: 'test_y',
    });
    await expect(checkout(stranger, order('32165498791', devices[2]!), vi.fn())).rejects.toMatchObject({
      code: 'invalid_client',
    });
  });

  it('src/main.ts runs one sale against the running service and prints it masked', async () => {
    const tsx = createRequire(import.meta.url).resolve('tsx');
    const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', tsx, main], {
      env: { ...process.env, FIN_BASE_URL: financing.url, STORE_ID: storeId, IMEI: devices[3]! },
    });
    expect(stdout).toMatch(/^financed \(customer \*\*\*\.000\.001-\*\*, device \*{11}\d{4}\): contract /);
    expect(stdout).not.toContain(devices[3]!);
  });
});
