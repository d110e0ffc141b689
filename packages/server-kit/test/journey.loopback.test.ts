// The whole sale journey over a real node:http server on loopback, driven by @fin/authorization-client.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@fin/server-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedService, phoneCart, wholeSale } from './adapters/sale-through.js';

describe('sale journey over loopback', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it('token, authorize, confirm, cancel with EXCHANGE, then authorize again reusing the proposal (R-09, R-11)', async () => {
    const embedded = embeddedService(null);
    server = createServer(toNodeHandler(embedded.service));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const client = await wholeSale(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, embedded);
    const exchange = await client
      .journey()
      .authorize(phoneCart(embedded.storeId, embedded.devices[1]!, 300_000));
    expect(exchange).toMatchObject({ authorized: true, proposalReuse: { reused: true } });
    await embedded.service.close();
  });
});
