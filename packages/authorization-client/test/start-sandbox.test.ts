// Issue 36 §3: startSandbox serves the sandbox over loopback HTTP; reset() forgets sales, not tokens; generateImei.
import { AuthorizationClient, buildCart, type ResponseEvent } from '@fin/authorization-client';
import {
  generateImei,
  magicValues,
  type RunningSandbox,
  startSandbox,
} from '@fin/authorization-client/testing';
import { endpoints, imei } from '@fin/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeAndConfirm, cartInput } from './fixtures.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const clientOf = (running: RunningSandbox) => {
  const { baseUrl, clientId, clientSecret } = running;
  return new AuthorizationClient({ baseUrl, clientId, clientSecret, rateLimit: false });
};

/** Route and status of every attempt the client makes. */
function attempts(client: AuthorizationClient) {
  const seen: Array<[string, number | undefined]> = [];
  client.on('response', (event: ResponseEvent) => seen.push([event.route, event.status]));
  return seen;
}

const sale = (client: AuthorizationClient, device = generateImei()) =>
  authorizeAndConfirm(client, buildCart(cartInput({ imei: device })));

describe('startSandbox (issue 36 §3)', () => {
  it('answers on a loopback baseUrl with the sandbox credentials: a sale authorizes and confirms', async () => {
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect({ clientId: sandbox.clientId, clientSecret: sandbox.clientSecret }).toEqual(
      magicValues.credentials,
    );
    await expect(sale(clientOf(sandbox))).resolves.toMatchObject({ status: 'CONFIRMED' });
  });

  it('keeps the magic values: imei.alreadyFinanced is imei_already_financed (R-10)', async () => {
    await expect(
      clientOf(sandbox).authorize(buildCart(cartInput({ imei: magicValues.imei.alreadyFinanced }))),
    ).rejects.toMatchObject({ code: 'imei_already_financed' });
  });

  it('reset() forgets sales but keeps the token: the next call is answered, no 401 and no new token', async () => {
    const client = clientOf(sandbox);
    const before = await sale(client, magicValues.imei.approved);
    const seen = attempts(client);
    await sandbox.reset();
    // The same device again: the sale before the reset is forgotten (else imei_already_financed, R-10).
    await expect(sale(client, magicValues.imei.approved)).resolves.toMatchObject({ status: 'CONFIRMED' });
    await expect(client.retrieve(before.authorizationId)).rejects.toMatchObject({ status: 404 });
    expect(seen.map(([, status]) => status)).not.toContain(401);
    expect(seen.map(([route]) => route)).not.toContain(endpoints.tokenPath);
  });

  it('serves a given port, and refuses a body over the service limit as the service does (413)', async () => {
    const other = await startSandbox({ clientId: 'test_pos_other', clientSecret: 'test_other_secret' });
    try {
      expect(other.clientId).toBe('test_pos_other');
      const token = await fetch(`${other.baseUrl}${endpoints.tokenPath}`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa('test_pos_other:test_other_secret')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      }).then((answer) => answer.json());
      const response = await fetch(`${other.baseUrl}/v1/sales/authorize`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token.access_token}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
          'x-request-id': crypto.randomUUID(),
          'x-correlation-id': crypto.randomUUID(),
        },
        body: JSON.stringify({ padding: 'x'.repeat(70 * 1024) }),
      });
      expect(response.status).toBe(413);
    } finally {
      await other.close();
    }
  });
});

describe('generateImei (issue 36 §3)', () => {
  it('gives valid IMEIs (Luhn), never the same twice, never a magic one', () => {
    const many = Array.from({ length: 500 }, generateImei);
    expect(many.every((value) => imei.isValid(value))).toBe(true);
    expect(new Set(many).size).toBe(many.length);
    expect(many).not.toContain(magicValues.imei.alreadyFinanced);
  });

  it('two tests selling with generateImei() both authorize, where a reused magic IMEI meets imei_already_financed', async () => {
    const client = clientOf(sandbox);
    await sandbox.reset();
    await sale(client);
    await expect(sale(client)).resolves.toMatchObject({ status: 'CONFIRMED' });
    await sale(client, magicValues.imei.approved);
    await expect(sale(client, magicValues.imei.approved)).rejects.toMatchObject({
      code: 'imei_already_financed',
    });
  });
});
