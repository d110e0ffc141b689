// The system layer: only the scopes in use, token errors (401, 403), and the partner's 429 with Retry-After.
import { isFinApiError } from '@fin/core';
import { PosClient } from '@fin/pos-client';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { BASE_URL, inVirtualTime, startPartner } from './fixtures.js';

const partner = startPartner({
  size: { stores: 1, productsPerStore: 20, employees: 10 },
  rateLimit: { reads: 5, tokens: 3, windowMs: 2_000 },
});
afterAll(partner.close);
const { sim, server } = partner;
const storeId = sim.data.stores[0]!.storeId;
const sale = sim.data.sales[0]!;
let at = Date.parse('2026-05-04T12:00:00.000Z');
// Each test starts well after the previous one's rate-limit window.
beforeEach(() => {
  at += 60_000;
  sim.requests.clear();
});

/** The `scope` field of every token request, read from the form as it went out. */
function watchTokenScopes() {
  const scopes: (string | null)[] = [];
  server.events.on('request:start', async ({ request }) => {
    if (request.url.endsWith('/v1/oauth/token'))
      scopes.push(new URLSearchParams(await request.clone().text()).get('scope'));
  });
  return scopes;
}

describe('scopes', () => {
  test('spec section 5: the token asks for the three Partner POS scopes by default, or only those given', async () => {
    const scopes = watchTokenScopes();
    await inVirtualTime(async () => {
      await partner.client().stores.list().toArray();
      await partner
        .client({ scopes: ['catalog:read'] })
        .stores.list()
        .toArray();
    }, new Date(at));
    server.events.removeAllListeners();
    expect(scopes).toEqual(['catalog:read inventory:read sales:read', 'catalog:read']);
  });

  test('a token without sales:read gets 403 insufficient_scope on sale search', async () => {
    const pos = partner.client({ scopes: ['catalog:read', 'inventory:read'] });
    const error = await inVirtualTime(() => pos.sales.search({ taxId: sale.taxId }), new Date(at)).catch(
      (e) => e,
    );
    expect(isFinApiError(error, 'insufficient_scope')).toBe(true);
    expect(error).toMatchObject({ status: 403 });
  });
});

describe('401', () => {
  test('a wrong client secret is 401 invalid_client, for every call', async () => {
    const pos = partner.client({ clientSecret: 'from-another-environment' });
    const error = await inVirtualTime(() => pos.store(storeId).plans.list(), new Date(at)).catch((e) => e);
    expect(isFinApiError(error, 'invalid_client')).toBe(true);
    expect(error).toMatchObject({ status: 401 });
    expect(JSON.stringify(error)).not.toContain('from-another-environment');
  });

  test('a token the partner no longer knows (invalid_token) is dropped and the call replayed once', async () => {
    const pos = partner.client();
    await inVirtualTime(async () => {
      await pos.store(storeId).plans.list();
      sim.tokens.revoke();
      expect(await pos.store(storeId).plans.list()).toEqual(sim.data.plans);
    }, new Date(at));
    expect(sim.requests.all().filter((record) => record.status === 401)).toHaveLength(1);
  });

  test('an unknown client is 401 invalid_client', async () => {
    const pos = new PosClient({ baseUrl: BASE_URL, clientId: 'who', clientSecret: 'x', rateLimit: false });
    const error = await inVirtualTime(() => pos.stores.list().toArray(), new Date(at)).catch((e) => e);
    expect(isFinApiError(error, 'invalid_client')).toBe(true);
  });
});

describe('429 from the partner', () => {
  test('over the read limit the partner answers 429 with Retry-After; the client waits it out and succeeds', async () => {
    const plans = await inVirtualTime(async () => {
      const pos = partner.client({ rateLimit: false });
      for (let i = 0; i < 5; i++) await pos.store(storeId).stock.get('SM-000001');
      return pos.store(storeId).plans.list();
    }, new Date(at));
    expect(plans).toEqual(sim.data.plans);
    expect(sim.requests.count({ status: 429 })).toBe(1);
  });

  test('without retries the 429 surfaces as rate_limit_exceeded with retryAfterMs', async () => {
    const error = await inVirtualTime(async () => {
      const pos = partner.client({ rateLimit: false, maxRetries: 0 });
      for (let i = 0; i < 5; i++) await pos.store(storeId).stock.get('SM-000001');
      return pos.store(storeId).imei.validate(sim.data.devices()[0]!.imei);
    }, new Date(at)).catch((e) => e);
    expect(isFinApiError(error, 'rate_limit_exceeded')).toBe(true);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 2_000 });
  });

  test('token issuance has its own limit: past it the token call is 429 too', async () => {
    const error = await inVirtualTime(async () => {
      for (let i = 0; i < 4; i++)
        await partner.client({ rateLimit: false, maxRetries: 0 }).store(storeId).plans.list();
    }, new Date(at)).catch((e) => e);
    expect(isFinApiError(error, 'rate_limit_exceeded')).toBe(true);
    expect(sim.requests.count({ endpoint: 'POST /v1/oauth/token', status: 429 })).toBe(1);
  });
});
