// DESIGN 7: an authorization belongs to the client that created it; another client learns nothing about it.
import { describe, expect, it } from 'vitest';
import {
  cart,
  confirmation,
  harness,
  PARTNER_A,
  PARTNER_B,
  saleSearchDouble,
  T0,
} from './support/harness.js';

describe('tenancy', () => {
  it('client B cannot confirm, cancel or learn anything about client A’s authorization', async () => {
    const pos = saleSearchDouble();
    const h = harness({ clients: [PARTNER_A, { ...PARTNER_B, saleSearch: pos.saleSearch }] });
    const id = (await h.authorize(cart())).body.data.authorizationId as string;
    const tokenB = await h.token(PARTNER_B);

    const confirm = await h.confirm(id, confirmation(T0), { token: tokenB });
    const cancel = await h.cancel(id, { reason: 'EXCHANGE' }, { token: tokenB });
    const missing = await h.confirm('auth_00000000-0000-4000-8000-000000000000', confirmation(T0), {
      token: tokenB,
    });
    for (const answer of [confirm, cancel]) {
      expect(answer.status).toBe(404);
      // Exactly what an id that does not exist gets: nothing tells the two apart.
      expect(answer.body.error).toEqual(missing.body.error);
      expect(JSON.stringify(answer.body)).not.toContain('52998224725');
    }
    expect(pos.state.calls).toBe(0);

    // A's authorization is untouched: A confirms it.
    expect((await h.confirm(id, confirmation(T0))).body.data.status).toBe('CONFIRMED');
  });

  it('a storeId of another client is store_not_found, even with the right token', async () => {
    const h = harness();
    const answer = await h.authorize(cart({ storeId: 'store-a1' }), { token: await h.token(PARTNER_B) });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('store_not_found');
  });
});
