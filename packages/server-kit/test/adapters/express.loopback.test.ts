// @fin/server-kit/express over a real Express server: a whole sale, probes, the host's JSON route, express.json() before it, S-25 by req.ip.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyAlreadyReadError, financingRouter } from '@fin/server-kit/express';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import {
  embeddedService,
  hostJsonRouteWorks,
  probesAnswer,
  tokenFailuresCountPerFrameworkPeer,
  wholeSale,
} from './sale-through.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

type Order = 'router first' | 'json parser first' | 'json parser keeping rawBody first';

const keepRawBody = (req: object, _res: unknown, buf: Buffer) => Object.assign(req, { rawBody: buf });

/** A host app with its own JSON route; the router mounted before or after the host's parsers. */
async function host(embedded: ReturnType<typeof embeddedService>, order: Order, trustProxy = false) {
  const app: Express = express();
  app.set('trust proxy', trustProxy);
  const router = financingRouter(embedded.service);
  if (order === 'router first') app.use(router);
  // The documented way to keep the exact bytes for a router mounted after the parsers.
  const verify = order === 'json parser keeping rawBody first' ? keepRawBody : undefined;
  app.use(express.json({ verify }));
  app.use(express.urlencoded({ extended: false, verify }));
  if (order !== 'router first') app.use(router);
  app.post('/host/echo', (req, res) => {
    res.json({ echoed: req.body });
  });
  const errors: unknown[] = [];
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    errors.push(error);
    res.status(500).json({ hostError: error instanceof Error ? error.name : 'unknown' });
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  return { base: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, errors };
}

describe('FIT-2: the Express router', () => {
  it.each<Order>(['router first', 'json parser keeping rawBody first'])(
    'carries a whole sale (authorize, confirm, cancel) through AuthorizationClient, %s',
    async (order) => {
      const embedded = embeddedService();
      await wholeSale((await host(embedded, order)).base, embedded);
      await embedded.service.close();
    },
  );

  it('answers /healthz and /readyz; the host app keeps parsing JSON on its own route; other paths go on to Express', async () => {
    const embedded = embeddedService();
    const { base } = await host(embedded, 'router first');
    await probesAnswer(base);
    await hostJsonRouteWorks(base);
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
    await embedded.service.close();
  });

  it('FIT-3: after an express.json() that kept no bytes, a body is refused clearly to the host (never re-serialised); body-less calls still work', async () => {
    const embedded = embeddedService();
    const { base, errors } = await host(embedded, 'json parser first');
    const token = await fetch(`${base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'pos-vendor',
        client_secret: 's3cret',
      }),
    });
    expect([token.status, await token.json()]).toEqual([500, { hostError: 'BodyAlreadyReadError' }]);
    expect(errors[0]).toBeInstanceOf(BodyAlreadyReadError);
    expect((errors[0] as Error).message).toMatch(
      /mount app\.use\(financingRouter\(service\)\) before the parsers/,
    );
    await probesAnswer(base);
    await hostJsonRouteWorks(base);
    await embedded.service.close();
  });

  it('S-25: failed token requests are counted per req.ip (the host trusting its proxy)', async () => {
    const embedded = embeddedService();
    await tokenFailuresCountPerFrameworkPeer((await host(embedded, 'router first', true)).base);
    await embedded.service.close();
  });
});
