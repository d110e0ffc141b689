// Abuse: secret guessing on the token endpoint, cross-partner access, stale tokens, another partner's Idempotency-Key.
import { createFinancingService, memoryStore, type Store, sandboxCreditEngine } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { answered, assertEnvelope, assertTokenAnswer } from './support/envelope-check.js';
import {
  CUSTOMER_CPF,
  cartFor,
  imeiStream,
  PARTNER_A,
  PARTNER_B,
  reliabilityService,
  SELLER_CPF,
} from './support/financing.js';
import { guardSecrets } from './support/secret-guard.js';

const BASE = 'http://financing.test';
const guard = guardSecrets();
guard.add('client secret', PARTNER_A.clientSecret, PARTNER_B.clientSecret);
guard.add('cpf', CUSTOMER_CPF, SELLER_CPF);
const nextImei = imeiStream(88);

type Partner = typeof PARTNER_A;
type Service = ReturnType<typeof reliabilityService>;

function manualClock(start = Date.parse('2026-03-02T15:00:00.000Z')) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const tokenRequest = (partner: Partner, secret = partner.clientSecret) =>
  new Request(`${BASE}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: secret,
      scope: 'sales:authorize',
    }),
  });

async function tokenOf(service: Service, partner: Partner): Promise<string> {
  const answer = await answered(await service.fetch(tokenRequest(partner)));
  expect(answer.status).toBe(200);
  const token = (JSON.parse(answer.text) as { access_token: string }).access_token;
  guard.add('token', token);
  return token;
}

async function call(service: Service, token: string, path: string, body: unknown, key = crypto.randomUUID()) {
  const answer = await answered(
    await service.fetch(
      new Request(`${BASE}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
          'x-request-id': crypto.randomUUID(),
          'x-correlation-id': crypto.randomUUID(),
        },
        body: JSON.stringify(body),
      }),
    ),
  );
  assertEnvelope(answer);
  return {
    status: answer.status,
    body: JSON.parse(answer.text) as { data: Record<string, unknown>; error: { code: string } | null },
  };
}

const freshCart = (partner: Partner) => {
  const deviceImei = nextImei();
  guard.add('imei', deviceImei);
  return cartFor(deviceImei, partner.storeId);
};

describe('abuse of the financing service', () => {
  it('S-25 failed token authentications have their own budget: a flood of wrong secrets is answered 429, and the right secret still gets a token', async () => {
    const clock = manualClock();
    const service = reliabilityService({ store: memoryStore(), clock, logger: guard.logger });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 200; attempt++) {
      const answer = await answered(
        await service.fetch(tokenRequest(PARTNER_A, `guess-${attempt}-wrong-secret`)),
      );
      assertTokenAnswer(answer);
      statuses.push(answer.status);
    }
    // 30 failures a minute per client_id are answered 401, the rest of the flood 429 without a token.
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(new Set(statuses.slice(30))).toEqual(new Set([429]));
    // The partner's own 60 issuances of that minute are all still there.
    for (let issued = 0; issued < 60; issued++) {
      expect((await service.fetch(tokenRequest(PARTNER_A))).status).toBe(200);
    }
    const spent = await answered(await service.fetch(tokenRequest(PARTNER_A)));
    assertTokenAnswer(spent);
    expect([spent.status, JSON.parse(spent.text).code]).toEqual([429, 'rate_limit_exceeded']);
    expect((await service.fetch(tokenRequest(PARTNER_B))).status).toBe(200);
    await service.close();
  });

  it('DESIGN 7 tenancy: client A token never reaches client B data (404 on B authorization, store_not_found on B store)', async () => {
    const service = reliabilityService({ store: memoryStore(), logger: guard.logger });
    const tokenA = await tokenOf(service, PARTNER_A);
    const tokenB = await tokenOf(service, PARTNER_B);
    const ofB = await call(service, tokenB, '/v1/sales/authorize', freshCart(PARTNER_B));
    expect(ofB.body.data.authorized).toBe(true);
    const idOfB = ofB.body.data.authorizationId as string;

    const cancel = await call(service, tokenA, `/v1/sales/${idOfB}/cancel`, { reason: 'OTHER' });
    expect([cancel.status, cancel.body.error?.code]).toEqual([404, 'authorization_not_found']);
    expect(cancel.body.data).toBeNull();
    const inStoreOfB = await call(service, tokenA, '/v1/sales/authorize', freshCart(PARTNER_B));
    expect(inStoreOfB.body.error?.code).toBe('store_not_found');

    // B's sale is untouched: B can still cancel it.
    const own = await call(service, tokenB, `/v1/sales/${idOfB}/cancel`, { reason: 'OTHER' });
    expect(own.status).toBe(200);
    await service.close();
  });

  it('spec §5: an expired token is refused with expired_token, a revoked client token with invalid_token', async () => {
    const clock = manualClock();
    const store: Store = memoryStore();
    const service = reliabilityService({ store, clock, logger: guard.logger });
    const tokenA = await tokenOf(service, PARTNER_A);
    const tokenB = await tokenOf(service, PARTNER_B);
    expect((await call(service, tokenA, '/v1/sales/authorize', freshCart(PARTNER_A))).status).toBe(200);

    clock.advance(3_600_000);
    const expired = await call(service, tokenA, '/v1/sales/authorize', freshCart(PARTNER_A));
    expect([expired.status, expired.body.error?.code]).toEqual([401, 'expired_token']);

    // Partner A's access is revoked: the next deployment, on the same store, no longer registers it.
    const clock2 = manualClock();
    const redeployed = createFinancingService({
      clients: [{ ...PARTNER_B, scopes: ['sales:authorize'], storeIds: [PARTNER_B.storeId] }],
      credit: sandboxCreditEngine(),
      store,
      clock: clock2,
      logger: guard.logger,
    });
    const tokenA2 = await tokenOf(service, PARTNER_A);
    const revoked = await call(redeployed, tokenA2, '/v1/sales/authorize', freshCart(PARTNER_A));
    expect([revoked.status, revoked.body.error?.code]).toEqual([401, 'invalid_token']);
    const stillB = await call(redeployed, tokenB, '/v1/sales/authorize', freshCart(PARTNER_B));
    expect(stillB.body.data.authorized).toBe(true);
    await redeployed.close();
    await service.close();
  });

  it('DESIGN 9 idempotency scoped by client: replaying A Idempotency-Key as B has no effect on A data', async () => {
    const service = reliabilityService({ store: memoryStore(), logger: guard.logger });
    const tokenA = await tokenOf(service, PARTNER_A);
    const tokenB = await tokenOf(service, PARTNER_B);
    const key = crypto.randomUUID();
    const cartA = freshCart(PARTNER_A);
    const first = await call(service, tokenA, '/v1/sales/authorize', cartA, key);
    expect(first.body.data.authorized).toBe(true);

    // B replays A's key with its own body: no 409, no replay of A's answer, B's own sale.
    const ownBody = await call(service, tokenB, '/v1/sales/authorize', freshCart(PARTNER_B), key);
    expect(ownBody.body.data.authorized).toBe(true);
    expect(ownBody.body.data.authorizationId).not.toBe(first.body.data.authorizationId);
    // B sending A's very cart is judged as B's request (not B's store): A's answer is never shown to B.
    const sameBody = await call(service, tokenB, '/v1/sales/authorize', cartA, crypto.randomUUID());
    expect(sameBody.body.error?.code).toBe('store_not_found');

    // A's key still replays A's own answer, and A's sale is A's to cancel.
    const replay = await call(service, tokenA, '/v1/sales/authorize', cartA, key);
    expect(replay.body.data).toEqual(first.body.data);
    const cancel = await call(service, tokenA, `/v1/sales/${first.body.data.authorizationId}/cancel`, {
      reason: 'OTHER',
    });
    expect(cancel.status).toBe(200);
    await service.close();
  });
});
