// The whole sale journey over a real node:http server on loopback, driven by @fin/authorization-client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationClient, buildCart } from '@fin/authorization-client';
import { money } from '@fin/core';
import { createFinancingService, sandboxCreditEngine, toNodeHandler } from '@fin/server-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { CUSTOMER, manualClock } from './support/harness.js';
import { simulatedPartner } from './support/simulated-partner.js';

describe('sale journey over loopback', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it('token, authorize, confirm, cancel with EXCHANGE, then authorize again reusing the proposal (R-09, R-11)', async () => {
    const clock = manualClock(new Date());
    const { sim: partner, storeId, devices, posClient } = simulatedPartner(clock);
    const [first, second] = devices;
    const service = createFinancingService({
      clients: [
        {
          clientId: 'pos-vendor',
          clientSecret: 's3cret',
          scopes: ['sales:authorize'],
          storeIds: [storeId],
          saleSearch: posClient().sales,
        },
      ],
      credit: sandboxCreditEngine(),
      clock,
    });
    server = createServer(toNodeHandler(service));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const client = new AuthorizationClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      clientId: 'pos-vendor',
      clientSecret: 's3cret',
      maxRetries: 0,
    });
    const cartFor = (imei: string, cents: number) =>
      buildCart({
        client: { name: 'Maria Silva', taxId: CUSTOMER, phoneNumber: '11987654321' },
        seller: { id: 'seller-1', taxId: '11144477735', name: 'João Souza' },
        storeId,
        planId: 'plan-1',
        imei,
        items: [
          {
            sku: 'SKU-1',
            productType: 'SMARTPHONE',
            name: 'Phone',
            quantity: 1,
            unitPrice: money.brl(cents),
          },
        ],
      });

    const sale = client.journey();
    const authorized = await sale.authorize(cartFor(first!, 320_000));
    if (!authorized.authorized) throw new Error('expected an authorization');
    const invoice = partner.sales.register({ imei: first!, taxId: CUSTOMER, storeId, status: 'ACTIVE' });
    const confirmed = await sale.confirm(authorized.authorizationId, {
      saleNumber: invoice.saleNumber,
      invoiceNumber: invoice.invoiceNumber!,
      nfeAccessKey: invoice.nfeAccessKey!,
      invoicedAt: invoice.saleDate,
    });
    expect(confirmed).toMatchObject({ status: 'CONFIRMED', contractId: expect.any(String) });
    expect(money.sum(confirmed.installments.map((i) => i.amount))).toEqual(money.brl(320_000));

    partner.sales.setStatus({ saleNumber: invoice.saleNumber }, 'CANCELLED');
    const cancelled = await sale.cancel(authorized.authorizationId, { reason: 'EXCHANGE' });
    expect(cancelled).toMatchObject({
      status: 'CANCELLED',
      verification: 'VERIFIED',
      financingCancelled: true,
    });

    const exchange = await client.journey().authorize(cartFor(second!, 300_000));
    expect(exchange).toMatchObject({ authorized: true, proposalReuse: { reused: true } });
    await service.close();
  });
});
