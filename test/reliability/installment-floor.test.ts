// HP-7: no contract carries an installment under one cent; the count is capped at approval, never at confirmation.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationClient } from '@fin/authorization-client';
import { money } from '@fin/core';
import { memoryStore, toNodeHandler } from '@fin/server-kit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartFor, imeiStream, PARTNER_A, reliabilityService } from './support/financing.js';

const service = reliabilityService({ store: memoryStore() });
const server = createServer(toNodeHandler(service));
const nextImei = imeiStream(85);
let client: AuthorizationClient;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  client = new AuthorizationClient({ baseUrl: `http://127.0.0.1:${port}`, ...PARTNER_A, rateLimit: false });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await service.close();
});

/** A cart of one accessory-priced handset whose grandTotal is `cents`. */
function cartOf(cents: number) {
  const cart = cartFor(nextImei(), PARTNER_A.storeId);
  const price = money.brl(cents);
  return {
    ...cart,
    items: cart.items.map((item) => ({ ...item, unitPrice: price, totalPrice: price })),
    services: [],
    totals: { productsTotal: price, servicesTotal: money.brl(0), grandTotal: price },
  };
}

describe('HP-7: installments never zero', () => {
  it('a R$ 0,03 sale approved by the credit engine (10 installments asked) confirms as 3 installments of R$ 0,01', async () => {
    const authorized = await client.authorize(cartOf(3));
    expect(authorized.authorized).toBe(true);
    if (!authorized.authorized) return;
    const confirmed = await client.confirm(authorized.authorizationId, {
      saleNumber: 'V-3',
      invoiceNumber: '77',
      nfeAccessKey: '35260317371324000139550010000000771000000779',
      invoicedAt: new Date().toISOString(),
    });
    expect(confirmed.installments?.map((installment) => installment.amount.amount)).toEqual([1, 1, 1]);
  });

  it('property: an approved proposal of any amount and count carries only installments of at least one cent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 99 }),
        async (cents, asked) => {
          const proposal = await service.proposals.approve({
            clientTaxId: '52998224725',
            storeId: PARTNER_A.storeId,
            amount: money.brl(cents),
            installments: asked,
          });
          expect(proposal.installments).toBe(Math.min(asked, cents));
          const smallest = money.allocate(money.brl(cents), proposal.installments).at(-1)!;
          expect(smallest.amount).toBeGreaterThanOrEqual(1);
        },
      ),
      { numRuns: 100 },
    );
  });
});
