// Idempotency-Key on every write POST (spec section 8, DESIGN 9): replay, conflict, scope, storage rules, concurrency.
import { randomUUID } from 'node:crypto';
import { money } from '@fin/core';
import { type CreditEngine, memoryStore } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { CUSTOMER, cart, confirmation, DAY, harness, PARTNER_B, T0 } from './support/harness.js';

describe('idempotency', () => {
  it('same key and same request within 24 h replays the stored answer without reprocessing', async () => {
    const h = harness();
    const key = randomUUID();
    const first = await h.authorize(cart(), { idempotencyKey: key });
    const again = await h.authorize(cart(), { idempotencyKey: key });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // Reprocessing would have met R-10 (the IMEI is now financed) instead of replaying.
    expect(again.body.data.authorized).toBe(true);
  });

  it('the replay echoes the X-Request-Id of the retry, as every response does', async () => {
    const h = harness();
    const key = randomUUID();
    await h.authorize(cart(), { idempotencyKey: key });
    const requestId = randomUUID();
    const again = await h.authorize(cart(), { idempotencyKey: key, headers: { 'x-request-id': requestId } });
    expect(again.body.requestId).toBe(requestId);
  });

  it('key order and number spelling do not make a request different (RFC 8785 fingerprint)', async () => {
    const h = harness();
    const key = randomUUID();
    const body = cart();
    const first = await h.authorize(body, { idempotencyKey: key });
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(body).reverse())).replace(
      `"amount":${body.totals.grandTotal.amount}`,
      `"amount":${body.totals.grandTotal.amount}.0`,
    );
    const again = await h.authorize(reordered, { idempotencyKey: key });
    expect(again.body.data.authorizationId).toBe(first.body.data.authorizationId);
  });

  it('same key with a different request is 409 idempotency_key_conflict', async () => {
    const h = harness();
    const key = randomUUID();
    await h.authorize(cart(), { idempotencyKey: key });
    const other = await h.authorize(cart({ price: 199_900 }), { idempotencyKey: key });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'idempotency_key_conflict', legacyCode: 'FA2002' });
  });

  it('the same key on another path is a different request: conflict', async () => {
    const h = harness();
    const key = randomUUID();
    const authorized = await h.authorize(cart(), { idempotencyKey: key });
    const id = authorized.body.data.authorizationId;
    const confirm = await h.confirm(id, confirmation(T0), { idempotencyKey: key });
    expect(confirm.body.error.code).toBe('idempotency_key_conflict');
  });

  it('declines are stored and replayed (R-07 answers are answers)', async () => {
    let calls = 0;
    const h = harness({
      credit: {
        async analyze() {
          calls += 1;
          return { approved: false, declineReason: 'CREDIT_POLICY' };
        },
      },
    });
    const key = randomUUID();
    const first = await h.authorize(cart(), { idempotencyKey: key });
    const again = await h.authorize(cart(), { idempotencyKey: key });
    expect(again.body.data).toEqual(first.body.data);
    expect(again.body.data.authorized).toBe(false);
    expect(calls).toBe(1);
  });

  it('validation errors are not stored: the corrected request with the same key runs', async () => {
    const h = harness();
    const key = randomUUID();
    const broken = await h.authorize({ ...cart(), imei: 'x' }, { idempotencyKey: key });
    expect(broken.status).toBe(422);
    const fixed = await h.authorize(cart(), { idempotencyKey: key });
    expect(fixed.body.data.authorized).toBe(true);
  });

  it('429s are not stored: the same key runs once the window reopens', async () => {
    const h = harness({ limits: { writesPerMinute: 1 } });
    await h.authorize(cart({ imei: '356938035643809' }));
    const key = randomUUID();
    const limited = await h.authorize(cart(), { idempotencyKey: key });
    expect(limited.status).toBe(429);
    h.clock.advance(61_000);
    expect((await h.authorize(cart(), { idempotencyKey: key })).body.data.authorized).toBe(true);
  });

  it('spec 8: every write counts against the limit, refused ones too, and over it 429 comes before any other refusal', async () => {
    const h = harness({ limits: { writesPerMinute: 3 } });
    expect((await h.authorize(cart(), { idempotencyKey: null })).body.error.code).toBe(
      'missing_idempotency_key',
    );
    expect((await h.authorize('{"clientName": ')).body.error.code).toBe('bad_request');
    const key = randomUUID();
    expect((await h.authorize(cart(), { idempotencyKey: key })).body.data.authorized).toBe(true);
    for (const refused of [
      await h.authorize(cart(), { idempotencyKey: null }),
      await h.authorize('{"clientName": '),
      await h.authorize({ ...cart(), imei: 'x' }),
      await h.authorize(cart(), { idempotencyKey: key }),
      await h.authorize(cart({ imei: '356938035643809' })),
    ]) {
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limit_exceeded');
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    }
  });

  it('keys are scoped by client: another partner’s same key is its own request', async () => {
    const h = harness();
    const key = randomUUID();
    await h.authorize(cart(), { idempotencyKey: key });
    const tokenB = await h.token(PARTNER_B);
    const b = await h.authorize(cart({ storeId: 'store-b1', clientTaxId: '11144477735' }), {
      idempotencyKey: key,
      token: tokenB,
    });
    expect(b.status).toBe(422);
    expect(b.body.error.code).toBe('imei_already_financed');
  });

  it('answers are kept 24 hours: after that the key is new again', async () => {
    const h = harness();
    const key = randomUUID();
    await h.authorize(cart(), { idempotencyKey: key });
    h.clock.advance(DAY);
    const later = await h.authorize(cart({ price: 100_000 }), {
      idempotencyKey: key,
      token: await h.freshToken(),
    });
    expect(later.status).toBe(200);
  });

  it('a missing key is missing_idempotency_key (400); a key that is not a uuid v4 is a validation_error', async () => {
    const h = harness();
    const missing = await h.authorize(cart(), { idempotencyKey: null });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'missing_idempotency_key', legacyCode: 'FA2005' });
    const malformed = await h.authorize(cart(), { idempotencyKey: 'abc' });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error.details).toEqual([
      { field: 'header.Idempotency-Key', issue: 'must be a uuid v4' },
    ]);
  });

  it('50 concurrent identical requests with one key: one authorization created, 50 identical answers', async () => {
    let analyses = 0;
    const h = harness({
      credit: {
        async analyze(request) {
          analyses += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { approved: true, amount: request.amount, installments: 10 };
        },
      },
    });
    await h.token();
    const key = randomUUID();
    const requestId = randomUUID();
    const correlationId = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        h.authorize(cart(), {
          idempotencyKey: key,
          headers: { 'x-request-id': requestId, 'x-correlation-id': correlationId },
        }),
      ),
    );
    expect(analyses).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify([a.status, a.body])))).toHaveProperty('size', 1);
    expect(answers[0]!.body.data.authorized).toBe(true);
    // Exactly one authorization exists: a new key for the same IMEI meets R-10.
    expect((await h.authorize(cart())).body.error.code).toBe('imei_already_financed');
  });

  it('a duplicate on another instance sharing the store waits for the first and replays its answer', async () => {
    const store = memoryStore();
    const engine = gatedEngine();
    const slow = harness({ store, credit: engine.credit });
    const other = harness({ store });
    const key = randomUUID();
    const token = await slow.token();
    const first = slow.authorize(cart(), { idempotencyKey: key, token });
    await engine.entered;
    const duplicate = other.authorize(cart(), { idempotencyKey: key, token });
    setTimeout(engine.release, 50);
    const [a, b] = await Promise.all([first, duplicate]);
    expect(b.body.data).toEqual(a.body.data);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
  });

  it('a duplicate that waited longer than idempotencyWaitMs is 409 idempotency_key_in_progress with Retry-After', async () => {
    const store = memoryStore();
    const engine = gatedEngine();
    const stuck = harness({ store, credit: engine.credit });
    const other = harness({ store, limits: { idempotencyWaitMs: 100 } });
    const key = randomUUID();
    const token = await stuck.token();
    const first = stuck.authorize(cart(), { idempotencyKey: key, token });
    await engine.entered;
    const answer = await other.authorize(cart(), { idempotencyKey: key, token });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('idempotency_key_in_progress');
    expect(answer.headers.get('retry-after')).toBe('1');
    engine.release();
    expect((await first).status).toBe(200);
  });

  it('proposal approvals are not requests: approving twice gives two proposals', async () => {
    const h = harness();
    const a = await h.service.proposals.approve({
      clientTaxId: CUSTOMER,
      storeId: 'store-a1',
      amount: money.brl(1),
    });
    const b = await h.service.proposals.approve({
      clientTaxId: CUSTOMER,
      storeId: 'store-a1',
      amount: money.brl(1),
    });
    expect(a.proposalId).not.toBe(b.proposalId);
  });
});

/** A credit engine that approves only once released; `entered` settles when a request reaches it. */
function gatedEngine() {
  let enter!: () => void;
  let release!: () => void;
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const credit: CreditEngine = {
    async analyze(request) {
      enter();
      await gate;
      return { approved: true, amount: request.amount, installments: 10 };
    },
  };
  return { credit, entered, release };
}
