// Hono over its Node server (@hono/node-server) with service.fetch on a route: a whole sale, probes, the host's JSON route, S-25 by getConnInfo.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultLimits } from '@fin/server-kit';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedService, hostJsonRouteWorks, probesAnswer, wholeSale } from './sale-through.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** The host app as docs/server-kit.md shows it: its own JSON route, the service on its paths. */
async function host(embedded: ReturnType<typeof embeddedService>): Promise<string> {
  const { service } = embedded;
  const app = new Hono();
  app.post('/host/echo', async (c) => c.json({ echoed: await c.req.json() }));
  const toService = (c: Parameters<typeof getConnInfo>[0]) =>
    service.fetch(c.req.raw, { source: getConnInfo(c).remote.address });
  app.all('/v1/*', toService);
  app.all('/healthz', toService);
  app.all('/readyz', toService);
  return new Promise((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    ) as Server;
  });
}

describe('FIT-4: Hono through service.fetch', () => {
  it('carries a whole sale (authorize, confirm, cancel) through AuthorizationClient', async () => {
    const embedded = embeddedService();
    await wholeSale(await host(embedded), embedded);
    await embedded.service.close();
  });

  it('answers /healthz and /readyz, and the host app keeps parsing JSON on its own route', async () => {
    const embedded = embeddedService();
    const base = await host(embedded);
    await probesAnswer(base);
    await hostJsonRouteWorks(base);
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
    await embedded.service.close();
  });

  it('S-25: failed token requests are counted per peer from getConnInfo (the socket), whatever X-Forwarded-For says', async () => {
    const embedded = embeddedService();
    const base = await host(embedded);
    const statuses: number[] = [];
    for (let i = 0; i <= defaultLimits.tokenFailuresPerSourcePerMinute; i++) {
      const answer = await fetch(`${base}/v1/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': `198.51.100.${i}`,
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: `guess-${i}`,
          client_secret: 'x',
        }),
      });
      statuses.push(answer.status);
    }
    expect(statuses.at(-1)).toBe(429);
    await embedded.service.close();
  });
});
