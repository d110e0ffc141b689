// GET /v1/sales/{id} (DESIGN 22): the owner's read of an authorization's current state, through the service's fetch.
import { type SaleStatus, schemas } from '@fin/core';
import { describe, expect, it } from 'vitest';
import {
  cart,
  confirmation,
  harness,
  MINUTE,
  PARTNER_A,
  PARTNER_B,
  saleSearchDouble,
  T0,
} from './support/harness.js';

const stateOf = (body: unknown) =>
  schemas.successEnvelope(schemas.authorizationState).strict().parse(body).data;

const sale = (status: SaleStatus['status']): SaleStatus => ({
  status,
  saleNumber: 'S-1001',
  saleDate: new Date(T0.getTime() + MINUTE).toISOString(),
  cancellationDate: status === 'CANCELLED' ? new Date(T0.getTime() + 2 * MINUTE).toISOString() : null,
});

function setup() {
  const pos = saleSearchDouble();
  const h = harness({ clients: [{ ...PARTNER_A, saleSearch: pos.saleSearch }, PARTNER_B] });
  return { h, pos };
}

describe('GET /v1/sales/{id}', () => {
  it('AUTHORIZED with its expiresAt, then CONFIRMED with the contractId confirm answered', async () => {
    const { h } = setup();
    const authorized = (await h.authorize(cart())).body.data;
    const first = await h.retrieve(authorized.authorizationId);
    expect(first.status).toBe(200);
    expect(stateOf(first.body)).toEqual({
      authorizationId: authorized.authorizationId,
      status: 'AUTHORIZED',
      expiresAt: authorized.expiresAt,
    });
    const confirmed = await h.confirm(
      authorized.authorizationId,
      confirmation(new Date(T0.getTime() + MINUTE)),
    );
    expect(stateOf((await h.retrieve(authorized.authorizationId)).body)).toEqual({
      authorizationId: authorized.authorizationId,
      status: 'CONFIRMED',
      expiresAt: authorized.expiresAt,
      contractId: confirmed.body.data.contractId,
    });
  });

  it('R-06: EXPIRED once expiresAt passed unconfirmed, as the cancel endpoint reports it', async () => {
    const { h } = setup();
    const { authorizationId } = (await h.authorize(cart())).body.data;
    h.clock.advance(16 * MINUTE);
    expect(stateOf((await h.retrieve(authorizationId)).body).status).toBe('EXPIRED');
  });

  it('R-08: a notice keeps the prior status while PENDING; the cancel endpoint and the read say the same words', async () => {
    const { h, pos } = setup();
    const { authorizationId } = (await h.authorize(cart())).body.data;
    await h.confirm(authorizationId, confirmation(new Date(T0.getTime() + MINUTE)));
    pos.state.down = true;
    h.clock.advance(2 * MINUTE);
    const cancel = (await h.cancel(authorizationId, { reason: 'EXCHANGE' })).body.data;
    const pending = stateOf((await h.retrieve(authorizationId)).body);
    expect(pending).toMatchObject({
      status: cancel.status,
      cancellation: {
        reason: 'EXCHANGE',
        noticedAt: new Date(T0.getTime() + 2 * MINUTE).toISOString(),
        verification: cancel.verification,
      },
    });
    expect(pending.status).toBe('CONFIRMED');
    expect(pending.cancellation?.verification).toBe('PENDING');

    // The repeated notice searches again: the POS now shows the sale cancelled, R-08 verifies it.
    pos.state.down = false;
    pos.state.sales = [sale('CANCELLED')];
    const verified = (await h.cancel(authorizationId, { reason: 'EXCHANGE' })).body.data;
    expect(stateOf((await h.retrieve(authorizationId)).body)).toMatchObject({
      status: verified.status,
      cancellation: { verification: verified.verification },
    });
    expect(verified).toMatchObject({ status: 'CANCELLED', verification: 'VERIFIED' });
  });

  it('R-08: a notice the sale search contradicts reads CONTRADICTED, the financing still CONFIRMED', async () => {
    const { h, pos } = setup();
    const { authorizationId } = (await h.authorize(cart())).body.data;
    await h.confirm(authorizationId, confirmation(new Date(T0.getTime() + MINUTE)));
    pos.state.sales = [sale('ACTIVE')];
    await h.cancel(authorizationId, { reason: 'CUSTOMER_REQUEST' });
    expect(stateOf((await h.retrieve(authorizationId)).body)).toMatchObject({
      status: 'CONFIRMED',
      cancellation: { reason: 'CUSTOMER_REQUEST', verification: 'CONTRADICTED' },
    });
  });

  it('DESIGN 7: another client’s id is 404 authorization_not_found, exactly as an unknown id', async () => {
    const { h } = setup();
    const { authorizationId } = (await h.authorize(cart())).body.data;
    const tokenB = await h.token(PARTNER_B);
    const other = await h.retrieve(authorizationId, { token: tokenB });
    const missing = await h.retrieve('auth_00000000-0000-4000-8000-000000000000', { token: tokenB });
    expect(other.status).toBe(404);
    expect(other.body.error).toEqual(missing.body.error);
    expect(other.body.error.code).toBe('authorization_not_found');
    expect(JSON.stringify(other.body)).not.toContain(authorizationId.slice(5));
  });

  it('spec 5: scope sales:authorize; no token is 401, a token of another scope 403', async () => {
    const h = harness({ clients: [{ ...PARTNER_A, scopes: ['sales:authorize', 'sales:read'] }] });
    const { authorizationId } = (await h.authorize(cart())).body.data;
    expect((await h.retrieve(authorizationId, { token: null })).body.error.code).toBe('missing_token');
    const noScope = await h.retrieve(authorizationId, { token: await h.token(PARTNER_A, 'sales:read') });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.code).toBe('insufficient_scope');
  });

  it('spec 8: a read needs no Idempotency-Key and counts against the read class, never the writes', async () => {
    const limited = harness({ limits: { readsPerMinute: 2, writesPerMinute: 1 } });
    const { authorizationId } = (await limited.authorize(cart())).body.data;
    expect((await limited.retrieve(authorizationId)).status).toBe(200);
    expect((await limited.retrieve(authorizationId)).status).toBe(200);
    const over = await limited.retrieve(authorizationId);
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limit_exceeded');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // The one write of the minute was the authorize: the reads did not count against the writes.
    expect((await limited.cancel(authorizationId, { reason: 'OTHER' })).status).toBe(429);
    limited.clock.advance(MINUTE + 1000);
    expect((await limited.retrieve(authorizationId)).status).toBe(200);
  });

  it('the literal /v1/sales/authorize is never read as an id: GET there is 405 Allow POST', async () => {
    const { h } = setup();
    const answer = await h.get('/v1/sales/authorize');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.body.error.code).toBe('method_not_allowed');
  });
});
