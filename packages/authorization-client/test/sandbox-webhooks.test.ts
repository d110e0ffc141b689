// The sandbox delivers real contract-status webhooks (issue 26 §6): signed, to a node:http receiver built with createNodeWebhookHandler.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationClient, type WebhookEvent } from '@fin/authorization-client';
import { createNodeWebhookHandler } from '@fin/authorization-client/node';
import { authorizationHandlers } from '@fin/authorization-client/testing/msw';
import { generateWebhookSecret } from '@fin/core/webhooks';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cart, NFE_KEY, sandboxClientOptions } from './fixtures.js';

const secret = generateWebhookSecret();
const received: { event: WebhookEvent; webhookId: string }[] = [];
const receiver = createServer(
  createNodeWebhookHandler({
    secrets: secret,
    onEvent: (event, { webhookId }) => void received.push({ event, webhookId }),
  }),
);
const msw = setupServer();

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  msw.use(
    ...authorizationHandlers({
      webhooks: [{ url: `http://127.0.0.1:${port}/fin-webhooks`, secrets: [secret] }],
    }),
  );
  // The sandbox's deliveries leave the process for real: only the sandbox's own URL is intercepted.
  msw.listen({ onUnhandledRequest: 'bypass' });
});
afterAll(async () => {
  msw.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

it('a confirm in the sandbox delivers contract.created, verified by the receiver, before the call answers', async () => {
  const client = new AuthorizationClient(sandboxClientOptions);
  const approved = await client.authorize(cart());
  if (!approved.authorized) throw new Error('expected an approval');
  expect(received).toEqual([]);
  const invoicedAt = new Date(Date.now() - 60_000).toISOString();
  await client.confirm(approved.authorizationId, {
    saleNumber: 'V-1',
    invoiceNumber: 'NF-1',
    nfeAccessKey: NFE_KEY,
    invoicedAt,
  });
  expect(received).toHaveLength(1);
  const [{ event, webhookId }] = received as [(typeof received)[number]];
  expect(event).toMatchObject({
    id: webhookId,
    type: 'contract.created',
    data: { authorizationId: approved.authorizationId, status: 'CONFIRMED', sequence: 1, source: 'CONFIRM' },
  });
});
