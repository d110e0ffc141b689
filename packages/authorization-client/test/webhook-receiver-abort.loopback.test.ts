// Issue 37 §3: an anonymous peer that sends webhook-* headers and a few body bytes, then resets, hurts no receiver (node:http, Express, Fastify, Hono).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, type WebhookEvent } from '@fin/authorization-client';
import { createNodeWebhookHandler } from '@fin/authorization-client/node';
import { signWebhook, webhookEvents } from '@fin/authorization-client/testing';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetMidBody, unhandledRejections } from '../../../test/support/raw-socket.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** One receiver: what it handed to onEvent, how its handler calls ended, and what its host saw thrown. */
function receiver() {
  const received: WebhookEvent[] = [];
  const options = { secrets: [SECRET], onEvent: (event: WebhookEvent) => void received.push(event) };
  const node = createNodeWebhookHandler(options);
  const fetchHandler = createWebhookHandler(options);
  const ended: ('resolved' | 'rejected')[] = [];
  const hostErrors: unknown[] = [];
  const watch = <T>(work: Promise<T>) => {
    work.then(
      () => ended.push('resolved'),
      () => ended.push('rejected'),
    );
    return work;
  };
  return {
    received,
    ended,
    hostErrors,
    node: (req: IncomingMessage, res: ServerResponse) => watch(node(req, res)),
    fetch: (request: Request) => watch(fetchHandler(request)),
  };
}
type Receiver = ReturnType<typeof receiver>;

const listening = (server: Server) =>
  new Promise<Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));

/** Each host as its docs mount the receiver on `/webhooks`. */
const hosts: Record<string, (r: Receiver) => Promise<{ server: Server; close(): Promise<unknown> }>> = {
  // As examples/demo mounts it: the handler is the server's listener, its promise unwatched by node:http.
  'node:http (createNodeWebhookHandler)': async (r) => {
    const server = await listening(createServer((req, res) => void r.node(req, res)));
    return { server, close: () => new Promise((resolve) => server.close(resolve)) };
  },
  'Express (createNodeWebhookHandler)': async (r) => {
    const app = express();
    app.post('/webhooks', (req, res) => r.node(req, res));
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      r.hostErrors.push(error);
      res.status(500).end();
    });
    const server = await listening(createServer(app));
    return { server, close: () => new Promise((resolve) => server.close(resolve)) };
  },
  'Fastify (createNodeWebhookHandler)': async (r) => {
    const app = Fastify();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null));
    app.setErrorHandler((error, _request, reply) => {
      r.hostErrors.push(error);
      void reply.status(500).send();
    });
    app.post('/webhooks', async (request, reply) => {
      reply.hijack();
      await r.node(request.raw, reply.raw);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { server: app.server, close: () => app.close() };
  },
  'Hono (createWebhookHandler)': async (r) => {
    const app = new Hono();
    app.post('/webhooks', (c) => r.fetch(c.req.raw));
    app.onError((error, c) => {
      r.hostErrors.push(error);
      return c.body(null, 500);
    });
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(started as Server),
      ) as Server;
    });
    return { server, close: () => new Promise((resolve) => server.close(resolve)) };
  },
};

let stop: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('issue 37 §3: a webhook receiver meets a peer that resets mid-body without an unhandled rejection', () => {
  for (const [name, host] of Object.entries(hosts)) {
    it(`${name}: the handler settles, nothing reaches onEvent, the next delivery is answered 204`, async () => {
      const r = receiver();
      const { server, close } = await host(r);
      stop = close;
      const rejections = unhandledRejections();
      try {
        const event = webhookEvents.contractCreated({ contractId: 'ctr_1' });
        const delivery = await signWebhook({ secret: SECRET, event, id: 'msg_1' });
        await resetMidBody(server, {
          path: '/webhooks',
          headers: { ...delivery.headers, 'content-type': 'application/json' },
          partialBody: delivery.body.slice(0, 12),
        });
        await vi.waitFor(() => expect(r.ended).toHaveLength(1));
        const { port } = server.address() as AddressInfo;
        const answer = await fetch(`http://127.0.0.1:${port}/webhooks`, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
        });
        expect(answer.status).toBe(204);
        expect(r.ended).toEqual(['resolved', 'resolved']);
        expect(r.hostErrors).toEqual([]);
        expect(r.received).toEqual([event]);
        expect(rejections.seen).toEqual([]);
      } finally {
        rejections.stop();
      }
    });
  }
});
