// Issue 36 §3: after `server.resetHandlers(...authorizationHandlers())` the client's cached token is still accepted.
import { AuthorizationClient, type ResponseEvent } from '@fin/authorization-client';
import { magicValues } from '@fin/authorization-client/testing';
import { authorizationHandlers } from '@fin/authorization-client/testing/msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cart, sandboxClientOptions } from './fixtures.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('msw handlers across resetHandlers (issue 36 §3)', () => {
  it('a fresh sandbox per test forgets the sales, and its first call is answered without a 401 or a new token', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    server.resetHandlers(...authorizationHandlers());
    await expect(client.authorize(cart())).resolves.toMatchObject({ authorized: true });
    const seen: ResponseEvent[] = [];
    client.on('response', (event) => seen.push(event));
    server.resetHandlers(...authorizationHandlers());
    // The same device again: the new sandbox has no sale of the old one.
    await expect(client.authorize(cart({ imei: magicValues.imei.approved }))).resolves.toMatchObject({
      authorized: true,
    });
    expect(seen.map((event) => [event.route, event.status])).toEqual([['/v1/sales/authorize', 200]]);
  });
});
