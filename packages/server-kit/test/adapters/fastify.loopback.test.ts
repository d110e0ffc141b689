// @fin/server-kit/fastify over a real Fastify server: a whole sale, the probes, the host's own JSON route, S-25 by request.ip.
import { financingPlugin } from '@fin/server-kit/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  embeddedService,
  hostJsonRouteWorks,
  probesAnswer,
  tokenFailuresCountPerFrameworkPeer,
  wholeSale,
} from './sale-through.js';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A host app with its own JSON route, the plugin registered beside it. */
async function host(embedded: ReturnType<typeof embeddedService>, trustProxy = false): Promise<string> {
  app = Fastify({ trustProxy });
  app.post('/host/echo', async (request) => ({ echoed: request.body }));
  await app.register(financingPlugin, { service: embedded.service });
  return app.listen({ port: 0, host: '127.0.0.1' });
}

describe('FIT-1: the Fastify plugin', () => {
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
    // On the service's routes no Fastify parser runs: a type Fastify would refuse (415) reaches the
    // service, whose envelope names what it checks first (the request id headers).
    const unparsed = await fetch(`${base}/v1/sales/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<sale/>',
    });
    expect([unparsed.status, (await unparsed.json()).error?.code]).toEqual([400, 'invalid_request_id']);
    // A body without a content type, and a body beyond Fastify's own 1 MiB limit, are the service's to judge.
    const untyped = await fetch(`${base}/v1/oauth/token`, {
      method: 'POST',
      body: new Uint8Array([1, 2, 3]),
    });
    expect([untyped.status, (await untyped.json()).error]).toEqual([400, 'invalid_request']);
    const huge = await fetch(`${base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a='.padEnd(2 * 1024 * 1024, 'x'),
    });
    expect([huge.status, (await huge.json()).code]).toEqual([413, 'payload_too_large']);
    await embedded.service.close();
  });

  it('leaves other paths to Fastify (its own 404), and no probe route without healthPaths', async () => {
    const embedded = embeddedService();
    const base = await host(embedded);
    const other = await fetch(`${base}/elsewhere`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ message: 'Route GET:/elsewhere not found' });
    const unknownApi = await fetch(`${base}/v1/nowhere`);
    expect(await unknownApi.json()).toMatchObject({ error: { code: 'not_found' } });
    await embedded.service.close();
    await app?.close();
    const withoutProbes = embeddedService(null);
    const bare = await host(withoutProbes);
    const probe = await fetch(`${bare}/healthz`);
    expect([probe.status, await probe.json()]).toEqual([
      404,
      expect.objectContaining({ message: 'Route GET:/healthz not found' }),
    ]);
    await withoutProbes.service.close();
  });

  it('S-25: failed token requests are counted per request.ip (the host trusting its proxy)', async () => {
    const embedded = embeddedService();
    await tokenFailuresCountPerFrameworkPeer(await host(embedded, true));
    await embedded.service.close();
  });
});
