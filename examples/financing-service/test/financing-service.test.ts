// examples/financing-service on loopback: starts from a synced catalog, serves the token endpoint, closes cleanly.
import { createServer } from 'node:net';
import type { PartnerPosServer } from '@fin/example-partner-pos';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFinancingService } from '../src/index.js';
import { optionsFor, POS_VENDOR, smallPartner, tokenRequest } from './support.js';

let partner: PartnerPosServer;
beforeAll(async () => {
  partner = await smallPartner();
});
afterAll(() => partner.close());

/** A loopback port nothing listens on: connections to it are refused. */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('examples/financing-service', () => {
  it('syncs the catalog first, registers the POS vendor for the partner’s stores and serves /v1/oauth/token on loopback', async () => {
    const progress: string[] = [];
    const running = await startFinancingService({
      ...optionsFor(partner),
      onCatalogProgress: (page) => progress.push(page.resource),
    });
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(running.storeKind).toBe('memory');
      expect(running.firstSync).toMatchObject({ partnerId: POS_VENDOR.clientId, ok: true });
      expect(running.storeIds).toEqual(partner.sim.data.stores.map((store) => store.storeId));
      expect(progress).toContain('products');

      const token = await tokenRequest(running.url);
      expect(token.status).toBe(200);
      expect(await token.json()).toMatchObject({ token_type: 'Bearer', scope: 'sales:authorize' });
      expect((await tokenRequest(running.url, 'test_wrong_secret')).status).toBe(401);
    } finally {
      await running.close();
    }
    await expect(tokenRequest(running.url)).rejects.toThrow();
    await running.close(); // a second close has nothing left to do
  });

  it('reports its five worker loops in readiness and serves the probes it was asked for; close() stops them', async () => {
    const running = await startFinancingService({
      ...optionsFor(partner),
      healthPaths: { live: '/healthz', ready: '/readyz' },
    });
    let closed = false;
    try {
      expect(await running.service.health()).toEqual({
        live: true,
        ready: true,
        checks: {
          accepting: true,
          store: 'up',
          workers: {
            'catalog-sync': 'running',
            'cancellation-verifier': 'running',
            'confirmation-poller': 'running',
            purge: 'running',
            'stock-holds': 'running',
            'authorization-expiry': 'running',
            'webhook-delivery': 'running',
          },
        },
      });
      const ready = await fetch(`${running.url}/readyz`);
      expect(ready.status).toBe(200);
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
      await running.close();
      closed = true;
      expect(await running.service.health()).toMatchObject({
        ready: false,
        checks: { accepting: false, workers: { 'catalog-sync': 'stopped', purge: 'stopped' } },
      });
    } finally {
      if (!closed) await running.close();
    }
  });

  it('refuses to start, naming the catalog sync, when the partner POS refuses connections', async () => {
    const unreachable = `http://127.0.0.1:${await refusingPort()}`;
    await expect(
      startFinancingService({
        ...optionsFor(partner),
        partnerPosUrl: unreachable,
        posClient: { rateLimit: false, maxRetries: 0 },
      }),
    ).rejects.toThrow(/catalog sync from the partner POS failed \(connection_failed\)/);
  });
});
