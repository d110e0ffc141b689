// Every adapter under https.createServer({ requestCert: true, ca, minVersion: 'TLSv1.2' }): a whole sale of a certificate-bound client, and its token refused on another certificate.
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { toNodeHandler } from '@fin/server-kit';
import { financingRouter } from '@fin/server-kit/express';
import { financingPlugin } from '@fin/server-kit/fastify';
import { type HttpBindings, serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestPki, type TestPki } from '../../../../test/support/certificates.js';
import { httpsFetch } from '../../../../test/support/https-fetch.js';
import { embeddedService, wholeSale } from './sale-through.js';

let pki: TestPki;
beforeAll(() => {
  pki = makeTestPki(['pos-vendor', 'other-vendor']);
});

/** The server side of docs/mtls.md: only certificates of our CA, TLS 1.2 or higher. */
const tlsOptions = (): ServerOptions => ({
  key: pki.server.key,
  cert: pki.server.cert,
  ca: pki.ca,
  requestCert: true,
  rejectUnauthorized: true,
  minVersion: 'TLSv1.2',
});

type Embedded = ReturnType<typeof embeddedService>;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const hosts: Record<string, (embedded: Embedded) => Promise<string>> = {
  'toNodeHandler (node:https)': (embedded) =>
    listen(createServer(tlsOptions(), toNodeHandler(embedded.service))),
  '@fin/server-kit/express': (embedded) => {
    const app = express();
    app.use(financingRouter(embedded.service));
    return listen(createServer(tlsOptions(), app));
  },
  '@fin/server-kit/fastify': async (embedded) => {
    const app = Fastify({ https: tlsOptions() });
    await app.register(financingPlugin, { service: embedded.service });
    closers.push(() => app.close());
    return app.listen({ port: 0, host: '127.0.0.1' });
  },
  'Hono (service.fetch with the peer certificate)': (embedded) => {
    const app = new Hono<{ Bindings: HttpBindings }>();
    app.all('/v1/*', (c) => {
      const socket = c.env.incoming.socket as TLSSocket;
      return embedded.service.fetch(c.req.raw, {
        ...(socket.remoteAddress ? { source: socket.remoteAddress } : {}),
        peerCertificate: socket.getPeerCertificate().raw,
      });
    });
    return new Promise((resolve) => {
      const server = serve(
        { fetch: app.fetch, port: 0, hostname: '127.0.0.1', createServer, serverOptions: tlsOptions() },
        (info: AddressInfo) => resolve(`https://127.0.0.1:${info.port}`),
      ) as Server;
      closers.push(() => new Promise((done) => server.close(done)));
    });
  },
};

const as = (name: 'pos-vendor' | 'other-vendor') =>
  httpsFetch({ ca: pki.ca, cert: pki.clients[name]!.cert, key: pki.clients[name]!.key });

describe.each(Object.keys(hosts))('%s under HTTPS with client certificates', (name) => {
  it('carries a whole sale of the bound client; its token is invalid_token on another certificate', async () => {
    const embedded = embeddedService(null, pki.clients['pos-vendor']!.sha256);
    const base = await hosts[name]!(embedded);
    await wholeSale(base, embedded, as('pos-vendor'));
    const issued = await as('pos-vendor')(`${base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=pos-vendor&client_secret=s3cret',
    });
    const { access_token } = (await issued.json()) as { access_token: string };
    const stolen = await as('other-vendor')(`${base}/v1/sales/${randomUUID()}`, {
      headers: {
        authorization: `Bearer ${access_token}`,
        'x-request-id': randomUUID(),
        'x-correlation-id': randomUUID(),
      },
    });
    expect(stolen.status).toBe(401);
    expect(((await stolen.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
    const refused = await as('other-vendor')(`${base}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=pos-vendor&client_secret=s3cret',
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
    await embedded.service.close();
  });
});

describe('a connection without a client certificate of our CA', () => {
  it('never reaches the service: the handshake is refused under rejectUnauthorized', async () => {
    const embedded = embeddedService(null);
    const base = await hosts['toNodeHandler (node:https)']!(embedded);
    await expect(httpsFetch({ ca: pki.ca })(`${base}/v1/oauth/token`, { method: 'POST' })).rejects.toThrow();
    const stranger = httpsFetch({ ca: pki.ca, cert: pki.stranger.cert, key: pki.stranger.key });
    await expect(stranger(`${base}/v1/oauth/token`, { method: 'POST' })).rejects.toThrow();
    await embedded.service.close();
  });
});
