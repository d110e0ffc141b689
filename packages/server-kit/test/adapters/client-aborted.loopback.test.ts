// Issue 37 §3: a client that resets mid-body through node:http, Fastify, Express and Hono is one info line, never a 500.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type ClientRegistration,
  createFinancingService,
  sandboxCreditEngine,
  toNodeHandler,
} from '@fin/server-kit';
import { financingRouter } from '@fin/server-kit/express';
import { financingPlugin } from '@fin/server-kit/fastify';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetMidBody, unhandledRejections } from '../../../../test/support/raw-socket.js';
import { jsonWriteHeaders } from '../../../../test/support/write-headers.js';

type Service = ReturnType<typeof createFinancingService>;
interface Line {
  level: 'info' | 'warn' | 'error';
  entry: { event: string; [key: string]: unknown };
}

const CLIENT: ClientRegistration = {
  clientId: 'pos-vendor',
  clientSecret: 's3cret',
  scopes: ['sales:authorize'],
  storeIds: ['s1'],
};

/** A service whose log keeps each line's level. */
function loggedService() {
  const lines: Line[] = [];
  const at = (level: Line['level']) => (entry: Line['entry']) => lines.push({ level, entry });
  const service = createFinancingService({
    clients: [CLIENT],
    credit: sandboxCreditEngine(),
    logger: { info: at('info'), warn: at('warn'), error: at('error') },
  });
  return { service, lines };
}

/** Each host the issue names, listening on loopback: its node server and how to stop it. */
const hosts: Record<string, (service: Service) => Promise<{ server: Server; close(): Promise<unknown> }>> = {
  'node:http': async (service) => {
    const server = createServer(toNodeHandler(service));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, close: () => new Promise((resolve) => server.close(resolve)) };
  },
  Fastify: async (service) => {
    const app = Fastify();
    await app.register(financingPlugin, { service });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { server: app.server, close: () => app.close() };
  },
  Express: async (service) => {
    const app = express();
    app.use(financingRouter(service));
    const server = await new Promise<Server>((resolve) => {
      const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    return { server, close: () => new Promise((resolve) => server.close(resolve)) };
  },
  'Hono (@hono/node-server)': async (service) => {
    const app = new Hono();
    app.all('/v1/*', (c) => service.fetch(c.req.raw));
    const server = await new Promise<Server>((resolve) => {
      const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(listening as Server),
      ) as Server;
    });
    return { server, close: () => new Promise((resolve) => server.close(resolve)) };
  },
};

const base = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const issueToken = async (server: Server) => {
  const answer = await fetch(`${base(server)}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: 'pos-vendor',
      client_secret: 's3cret',
    }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
};

let stop: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('issue 37 §3: a client that resets mid-body is http.client_aborted at info, never a 500', () => {
  for (const [name, host] of Object.entries(hosts)) {
    it(`${name}: the token endpoint and authorize, then the server still answers`, async () => {
      const { service, lines } = loggedService();
      const { server, close } = await host(service);
      stop = async () => {
        await close();
        await service.close();
      };
      const rejections = unhandledRejections();
      try {
        const token = await issueToken(server);
        await resetMidBody(server, {
          path: '/v1/oauth/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          partialBody: 'grant_type=client_cr',
        });
        await resetMidBody(server, {
          path: '/v1/sales/authorize',
          headers: jsonWriteHeaders(token),
          partialBody: '{"storeId":"s1","cli',
        });
        await vi.waitFor(() =>
          expect(lines.filter((l) => l.entry.event === 'http.client_aborted')).toHaveLength(2),
        );
        expect(await issueToken(server)).toEqual(expect.any(String));
        const aborted = lines.filter((l) => l.entry.event === 'http.client_aborted');
        expect(aborted.map((l) => [l.level, l.entry.route, l.entry.outcome])).toEqual([
          ['info', 'token', 'client_aborted'],
          ['info', 'authorize', 'client_aborted'],
        ]);
        expect(lines.filter((l) => l.level === 'error')).toEqual([]);
        expect(lines.some((l) => l.entry.event === 'http.failure' || l.entry.status === 500)).toBe(false);
        expect(lines.some((l) => l.entry.outcome === 'internal_error')).toBe(false);
        expect(rejections.seen).toEqual([]);
      } finally {
        rejections.stop();
      }
    });
  }
});
