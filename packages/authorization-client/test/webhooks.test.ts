// The receiving side of webhooks: createWebhookHandler (Fetch) and createNodeWebhookHandler over a real loopback server, with the test kit.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createWebhookHandler,
  MAX_WEBHOOK_BODY_BYTES,
  verifyWebhook,
  type WebhookEvent,
  type WebhookHandlerOptions,
} from '@fin/authorization-client';
import { createNodeWebhookHandler } from '@fin/authorization-client/node';
import { signWebhook, webhookEvents } from '@fin/authorization-client/testing';
import { describe, expect, it } from 'vitest';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const URL_ = 'https://pos.example/webhooks/fin';

function receiver(extra: Partial<WebhookHandlerOptions> = {}) {
  const received: { event: WebhookEvent; webhookId: string }[] = [];
  const options: WebhookHandlerOptions = {
    secrets: [SECRET],
    onEvent: (event, { webhookId }) => {
      received.push({ event, webhookId });
    },
    ...extra,
  };
  return { received, options, handle: createWebhookHandler(options) };
}

const post = (delivery: { headers: Record<string, string>; body: string }) =>
  new Request(URL_, { method: 'POST', headers: delivery.headers, body: delivery.body });

describe('test kit: every event factory makes an event the verifier accepts, typed', () => {
  it.each(Object.entries(webhookEvents))('%s', async (_name, factory) => {
    const event = factory({ sequence: 7 });
    const delivery = await signWebhook({ secret: SECRET, event, id: 'msg_kit' });
    expect(await verifyWebhook(delivery.body, delivery.headers, { secrets: SECRET })).toEqual(event);
    expect(JSON.stringify(event)).not.toMatch(/cpf|imei|taxId/i);
  });
});

describe('createWebhookHandler (Fetch API)', () => {
  it('verifies, hands the typed event and its webhook-id to onEvent, answers 204', async () => {
    const { received, handle } = receiver();
    const event = webhookEvents.contractCreated({ contractId: 'ctr_9' });
    const response = await handle(post(await signWebhook({ secret: SECRET, event, id: 'msg_a' })));
    expect(response.status).toBe(204);
    expect(received).toEqual([{ event, webhookId: 'msg_a' }]);
  });

  it('refuses unsigned (400), stale, future-dated and wrong-secret deliveries (401) without calling onEvent', async () => {
    const { received, handle } = receiver();
    const event = webhookEvents.authorizationExpired();
    const now = Math.floor(Date.now() / 1000);
    const unsigned = await signWebhook({ secret: SECRET, event });
    delete unsigned.headers['webhook-signature'];
    const cases = [
      [unsigned, 400, 'webhook_missing_headers'],
      [await signWebhook({ secret: SECRET, event, timestamp: now - 3600 }), 401, 'webhook_timestamp_too_old'],
      [await signWebhook({ secret: SECRET, event, timestamp: now + 3600 }), 401, 'webhook_timestamp_too_new'],
      [await signWebhook({ secret: OTHER, event }), 401, 'webhook_no_matching_signature'],
    ] as const;
    for (const [delivery, status, error] of cases) {
      const response = await handle(post(delivery));
      expect([response.status, await response.json()]).toEqual([status, { error }]);
    }
    expect(received).toEqual([]);
  });

  it('rotation: a delivery signed with the old and the new secret is accepted by a receiver knowing either', async () => {
    const event = webhookEvents.cancellationVerified();
    const delivery = await signWebhook({ secret: [OTHER, SECRET], event });
    for (const secrets of [[SECRET], [OTHER]]) {
      const { received, handle } = receiver({ secrets });
      expect((await handle(post(delivery))).status).toBe(204);
      expect(received.map((r) => r.event)).toEqual([event]);
    }
  });

  it('an onEvent that throws answers 500 (so the sender retries) and is told to onError', async () => {
    const failures: unknown[] = [];
    const { handle } = receiver({
      onEvent: () => {
        throw new Error('database down');
      },
      onError: (error) => failures.push(error),
    });
    const response = await handle(
      post(await signWebhook({ secret: SECRET, event: webhookEvents.contractCreated() })),
    );
    expect([response.status, await response.json()]).toEqual([500, { error: 'handler_failed' }]);
    expect(failures).toEqual([new Error('database down')]);
  });

  it('a bad secret in the receiver is 500 webhook_bad_secret (retried once fixed), and only POST is accepted', async () => {
    const { handle } = receiver({ secrets: [` ${SECRET}`] });
    const delivery = await signWebhook({ secret: SECRET, event: webhookEvents.contractCreated() });
    const response = await handle(post(delivery));
    expect([response.status, await response.json()]).toEqual([500, { error: 'webhook_bad_secret' }]);
    expect((await receiver().handle(new Request(URL_))).status).toBe(405);
  });
});

describe('a receiver is a public URL: bodies over MAX_WEBHOOK_BODY_BYTES are answered 413 unread', () => {
  it('Fetch and node:http forms', async () => {
    const huge = 'x'.repeat(MAX_WEBHOOK_BODY_BYTES + 1);
    const { received, options, handle } = receiver();
    const delivery = await signWebhook({ secret: SECRET, event: huge });
    const response = await handle(post(delivery));
    expect([response.status, await response.json()]).toEqual([413, { error: 'body_too_large' }]);
    const server = await nodeServer(createNodeWebhookHandler(options));
    try {
      const answer = await fetch(server.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
      });
      expect([answer.status, await answer.json()]).toEqual([413, { error: 'body_too_large' }]);
    } finally {
      await server.close();
    }
    expect(received).toEqual([]);
  });
});

/** A loopback node:http server running `handler`, after an optional middleware; closed by the returned function. */
async function nodeServer(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  middleware?: (req: IncomingMessage & { body?: unknown }) => Promise<void>,
) {
  const server = createServer((req, res) => {
    void (middleware ? middleware(req) : Promise.resolve()).then(() => handler(req, res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

const readAll = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe('createNodeWebhookHandler (node:http)', () => {
  it('reads the raw body from the stream, or the Buffer a raw parser left (express.raw)', async () => {
    for (const middleware of [
      undefined,
      async (req: IncomingMessage & { body?: unknown }) => {
        req.body = await readAll(req);
      },
    ]) {
      const { received, options } = receiver();
      const server = await nodeServer(createNodeWebhookHandler(options), middleware);
      try {
        const event = webhookEvents.cancellationContradicted();
        const delivery = await signWebhook({ secret: SECRET, event, id: 'msg_node' });
        const response = await fetch(server.url, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
        });
        expect(response.status).toBe(204);
        expect(received).toEqual([{ event, webhookId: 'msg_node' }]);
      } finally {
        await server.close();
      }
    }
  });

  it('a body a JSON middleware already parsed is 500 webhook_body_parsed, never verified', async () => {
    const { received, options } = receiver();
    const jsonMiddleware = async (req: IncomingMessage & { body?: unknown }) => {
      req.body = JSON.parse((await readAll(req)).toString('utf8'));
    };
    const server = await nodeServer(createNodeWebhookHandler(options), jsonMiddleware);
    try {
      const delivery = await signWebhook({ secret: SECRET, event: webhookEvents.contractCreated() });
      const response = await fetch(server.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
      });
      expect([response.status, await response.json()]).toEqual([500, { error: 'webhook_body_parsed' }]);
      expect(received).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
