// AuthorizationClient.retrieve (GET /v1/sales/{id}) against the sandbox: what a POS restarting after a crash reads.
import { AuthorizationClient, FinApiError } from '@fin/authorization-client';
import { describe, expect, it } from 'vitest';
import { cart, NFE_KEY, sandboxClientOptions, useSandbox } from './fixtures.js';

const server = useSandbox();

describe('client.retrieve', () => {
  it('reads the state after each step, as a GET without Idempotency-Key, with its lastResponse', async () => {
    const sent: Array<{ method: string; idempotencyKey: string | null }> = [];
    server.events.on('request:start', ({ request }) => {
      if (new URL(request.url).pathname.startsWith('/v1/sales/auth'))
        sent.push({ method: request.method, idempotencyKey: request.headers.get('idempotency-key') });
    });
    const client = new AuthorizationClient(sandboxClientOptions);
    const authorized = await client.authorize(cart());
    if (!authorized.authorized) throw new Error('the sandbox approves magicValues.cpf.approved');
    const { authorizationId, expiresAt } = authorized;
    sent.length = 0;

    const first = await client.retrieve(authorizationId);
    expect(first).toEqual({ authorizationId, status: 'AUTHORIZED', expiresAt });
    expect(first.lastResponse.status).toBe(200);
    expect(sent).toEqual([{ method: 'GET', idempotencyKey: null }]);

    const { contractId } = await client.confirm(authorizationId, {
      saleNumber: 'V-1001',
      invoiceNumber: 'NF-555',
      nfeAccessKey: NFE_KEY,
      invoicedAt: new Date(),
    });
    expect(await client.retrieve(authorizationId)).toEqual({
      authorizationId,
      status: 'CONFIRMED',
      expiresAt,
      contractId,
    });

    // The sandbox's POS shows the sale cancelled once notified, so R-08 verifies the notice at once.
    const cancelled = await client.cancel(authorizationId, { reason: 'CUSTOMER_REQUEST' });
    const state = await client.retrieve(authorizationId);
    expect(state).toMatchObject({
      status: cancelled.status,
      cancellation: { reason: 'CUSTOMER_REQUEST', verification: cancelled.verification },
    });
    expect(Date.parse(state.cancellation!.noticedAt)).not.toBeNaN();
    server.events.removeAllListeners();
  });

  it('an unknown id is FinApiError authorization_not_found (404); an empty id is refused before sending', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const error = await client.retrieve('auth_00000000-0000-4000-8000-000000000000').catch((e) => e);
    expect(error).toBeInstanceOf(FinApiError);
    expect(error).toMatchObject({ code: 'authorization_not_found', status: 404 });
    await expect(client.retrieve('')).rejects.toMatchObject({
      name: 'FinInputError',
      code: 'validation_error',
    });
  });
});
