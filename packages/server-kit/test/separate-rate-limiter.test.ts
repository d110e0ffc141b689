// A rate limiter other than the store: a write's hit is counted apart from its `claimWrite`, and the service answers the same.
import { randomUUID } from 'node:crypto';
import { money } from '@fin/core';
import { type FinancingServiceOptions, memoryStore } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { cart, harness, MINUTE, OTHER_CUSTOMER } from './support/harness.js';

/** A memory store, and a rate limiter of its own (another memory store's). */
function apart(): Pick<FinancingServiceOptions, 'store' | 'rateLimiter'> {
  const limiter = memoryStore();
  return { store: memoryStore(), rateLimiter: { consumeRateLimit: (hit) => limiter.consumeRateLimit(hit) } };
}

describe('a rate limiter other than the store', () => {
  it('R-10, DESIGN 1 and idempotency answer as with them', async () => {
    const h = harness(apart());
    await h.service.proposals.approve({
      clientTaxId: '00000000353',
      storeId: 'store-a1',
      amount: money.brl(250_000),
    });
    expect((await h.authorize(cart({ clientTaxId: '00000000353' }))).body.data.authorized).toBe(true);
    const second = await h.authorize(cart({ clientTaxId: OTHER_CUSTOMER }));
    expect(second.body.error.code).toBe('imei_already_financed');
    const key = randomUUID();
    const first = await h.authorize(cart({ imei: '490154203237518' }), { idempotencyKey: key });
    const replay = await h.authorize(cart({ imei: '490154203237518' }), { idempotencyKey: key });
    expect(replay.body.data).toEqual(first.body.data);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const conflict = await h.authorize(cart({ imei: '352099001761481' }), { idempotencyKey: key });
    expect(conflict.body.error.code).toBe('idempotency_key_conflict');
  });

  it('spec 8: every write counts against the limit, and over it 429 comes before any other refusal', async () => {
    const h = harness({ ...apart(), limits: { writesPerMinute: 2 } });
    expect((await h.authorize(cart(), { idempotencyKey: null })).status).toBe(400);
    expect((await h.authorize(cart())).body.data.authorized).toBe(true);
    expect((await h.authorize(cart(), { idempotencyKey: null })).status).toBe(429);
    expect((await h.authorize(cart({ imei: '490154203237518' }))).status).toBe(429);
    h.clock.advance(MINUTE + 1000);
    expect((await h.authorize(cart({ imei: '490154203237518' }))).body.data.authorized).toBe(true);
  });
});
