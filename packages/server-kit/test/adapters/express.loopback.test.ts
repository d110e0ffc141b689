// @fin/server-kit/express over real Express 5 and 4 servers: a whole sale, idempotent replays, the token form, probes, with and without express.json() first (issue 36 §2).
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { AuthorizationClient, isFinApiError } from '@fin/authorization-client';
import { BodyAlreadyReadError, financingRouter } from '@fin/server-kit/express';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonWriteHeaders } from '../../../../test/support/write-headers.js';
import {
  embeddedService,
  hostJsonRouteWorks,
  phoneCart,
  probesAnswer,
  tokenFailuresCountPerFrameworkPeer,
  wholeSale,
} from './sale-through.js';

/** Express 4 (the `express4` alias of `npm:express@4`), typed as 5: the calls used here are the same. */
const express4 = createRequire(import.meta.url)('express4') as typeof express;
const versions = { 'Express 5': express, 'Express 4': express4 };
type Version = keyof typeof versions;

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

type Order = 'router first' | 'parsers first' | 'parsers keeping rawBody first';

const keepRawBody = (req: object, _res: unknown, buf: Buffer) => Object.assign(req, { rawBody: buf });

/**
 * A host app with its own JSON route; the router mounted before or after the host's global
 * express.json() and express.urlencoded() (a limit above the service's, so the service's own bound shows).
 */
async function host(
  embedded: ReturnType<typeof embeddedService>,
  order: Order,
  version: Version = 'Express 5',
  trustProxy = false,
) {
  const framework = versions[version];
  const app = framework();
  app.set('trust proxy', trustProxy);
  const router = financingRouter(embedded.service);
  if (order === 'router first') app.use(router);
  const verify = order === 'parsers keeping rawBody first' ? keepRawBody : undefined;
  app.use(framework.json({ verify, limit: '1mb' }));
  app.use(framework.urlencoded({ extended: version === 'Express 4', verify }));
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

const everyWay = Object.keys(versions).flatMap((version) =>
  (['router first', 'parsers first', 'parsers keeping rawBody first'] as const).map(
    (order) => [version as Version, order] as const,
  ),
);

const tokenForm = (base: string, form: string) =>
  fetch(`${base}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  }).then(async (answer) => ({
    status: answer.status,
    body: (await answer.json()) as Record<string, unknown>,
  }));

describe('FIT-2, FIT-3 (issue 36 §2): the Express router answers as node:http, before or after the parsers', () => {
  it.each(everyWay)(
    '%s, %s: a whole sale (token, authorize, confirm, cancel) through AuthorizationClient',
    async (version, order) => {
      const embedded = embeddedService();
      const { base, errors } = await host(embedded, order, version);
      await wholeSale(base, embedded);
      expect(errors).toEqual([]);
      await embedded.service.close();
    },
  );

  it.each(everyWay)(
    '%s, %s: a replay with the same key and body gets the same answer, another body 409',
    async (version, order) => {
      const embedded = embeddedService();
      const { base } = await host(embedded, order, version);
      const client = new AuthorizationClient({
        baseUrl: base,
        clientId: 'pos-vendor',
        clientSecret: 's3cret',
        maxRetries: 0,
      });
      const idempotencyKey = crypto.randomUUID();
      const cart = phoneCart(embedded.storeId, embedded.devices[0]!, 320_000);
      const first = await client.authorize(cart, { idempotencyKey });
      const replay = await client.authorize(cart, { idempotencyKey });
      expect(first.authorized && replay.authorized).toBe(true);
      expect(replay).toMatchObject({
        authorizationId: (first as { authorizationId: string }).authorizationId,
      });
      const other = phoneCart(embedded.storeId, embedded.devices[0]!, 310_000);
      const conflict = await client.authorize(other, { idempotencyKey }).catch((error: unknown) => error);
      expect(isFinApiError(conflict, 'idempotency_key_conflict')).toBe(true);
      expect(conflict).toMatchObject({ status: 409 });
      await embedded.service.close();
    },
  );

  it.each(everyWay)(
    '%s, %s: the token form as on node:http: 200, a wrong secret 401, a repeated field 400',
    async (version, order) => {
      const embedded = embeddedService();
      const { base } = await host(embedded, order, version);
      const granted = await tokenForm(
        base,
        'grant_type=client_credentials&client_id=pos-vendor&client_secret=s3cret',
      );
      expect(granted).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });
      const wrong = await tokenForm(
        base,
        'grant_type=client_credentials&client_id=pos-vendor&client_secret=x',
      );
      expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
      const repeated = await tokenForm(
        base,
        'grant_type=client_credentials&client_id=pos-vendor&client_secret=s3cret&scope=sales:authorize&scope=x',
      );
      expect(repeated).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
      await embedded.service.close();
    },
  );

  it.each(Object.keys(versions) as Version[])(
    "%s: a JSON body over the service limit (under the parser's) is 413 payload_too_large, parsers first or not",
    async (version) => {
      const embedded = embeddedService();
      for (const order of ['router first', 'parsers first'] as const) {
        const { base } = await host(embedded, order, version);
        const { body } = await tokenForm(
          base,
          'grant_type=client_credentials&client_id=pos-vendor&client_secret=s3cret',
        );
        const answer = await fetch(`${base}/v1/sales/authorize`, {
          method: 'POST',
          headers: jsonWriteHeaders(String(body.access_token)),
          body: JSON.stringify({ padding: 'x'.repeat(100 * 1024) }),
        });
        expect([
          order,
          answer.status,
          ((await answer.json()) as { error?: { code?: string } }).error?.code,
        ]).toEqual([order, 413, 'payload_too_large']);
        await new Promise((resolve) => server!.close(resolve));
        server = undefined;
      }
      await embedded.service.close();
    },
  );

  it('answers /healthz and /readyz; the host app keeps parsing JSON on its own route; other paths go on to Express', async () => {
    const embedded = embeddedService();
    for (const order of ['router first', 'parsers first'] as const) {
      const { base } = await host(embedded, order);
      await probesAnswer(base);
      await hostJsonRouteWorks(base);
      expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
      await new Promise((resolve) => server!.close(resolve));
      server = undefined;
    }
    await embedded.service.close();
  });

  it('a middleware that spent the stream and left neither req.body nor rawBody is refused clearly to the host', async () => {
    const embedded = embeddedService();
    const app = express();
    app.use((req, _res, next) => {
      req.resume();
      req.once('end', () => next());
    });
    app.use(financingRouter(embedded.service));
    const errors: unknown[] = [];
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      errors.push(error);
      res.status(500).end();
    });
    await new Promise<void>((resolve) => {
      server = app.listen(0, '127.0.0.1', () => resolve());
    });
    const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    expect(
      (await tokenForm(base, 'grant_type=client_credentials').catch(() => ({ status: 500 }))).status,
    ).toBe(500);
    expect(errors[0]).toBeInstanceOf(BodyAlreadyReadError);
    await embedded.service.close();
  });

  it('S-25: failed token requests are counted per req.ip (the host trusting its proxy)', async () => {
    const embedded = embeddedService();
    await tokenFailuresCountPerFrameworkPeer((await host(embedded, 'router first', 'Express 5', true)).base);
    await embedded.service.close();
  });
});
