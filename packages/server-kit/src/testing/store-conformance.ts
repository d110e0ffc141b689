// The Store conformance suite: the executable contract of the Store port; every store implementation runs it.
import { randomUUID } from 'node:crypto';
import { schemas } from '@fin/core';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthorizationRecord } from '../ports/records.js';
import type { Store } from '../ports/store.js';
import { deviceImei } from './cart-fixture.js';
import { describeLifecycleConformance } from './lifecycle-conformance.js';
import { authorizationFixture, confirmedRecord, proposalFixture } from './record-fixtures.js';
import { describeWebhookEventConformance } from './webhook-conformance.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
const T0 = new Date('2026-03-02T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** `record` confirmed (with its contract), then noticed cancelled for an EXCHANGE: every field set. */
const confirmedThenExchanged = (record: AuthorizationRecord): AuthorizationRecord => ({
  ...confirmedRecord(record),
  cancellation: {
    reason: 'EXCHANGE',
    description: 'troca',
    cancelledAt: at(3 * MINUTE).toISOString(),
    noticedAt: at(3 * MINUTE).toISOString(),
    verification: 'PENDING',
    attempts: 1,
    nextAttemptAt: at(4 * MINUTE).toISOString(),
    verifiedAt: null,
    lastOutcome: 'sale search failed',
  },
  updatedAt: at(3 * MINUTE).toISOString(),
});

const claim = (owner: string, fingerprint = 'fp-1', now = T0, key = 'key-1', clientId = 'partner-a') => ({
  clientId,
  key,
  owner,
  fingerprint,
  now,
  retentionMs: DAY,
  leaseMs: 30_000,
});

const response = { status: 200, headers: { 'content-type': 'application/json' }, body: { ok: true } };

/** Completes `key-1` of partner-a for `owner`. */
const complete = (store: Store, owner: string, now = T0) =>
  store.completeIdempotencyKey({ clientId: 'partner-a', key: 'key-1', owner, response, now });

/**
 * Registers the conformance tests of the Store port against a store made fresh for each test.
 * `makeStore` must return an empty store; it is closed after each test.
 */
export function describeStoreConformance(name: string, makeStore: () => Store | Promise<Store>): void {
  describe(`Store conformance: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('readiness: ping(), when the store has one, resolves while the store can serve', async () => {
      await expect(store.ping?.()).resolves.toBeUndefined();
    });

    describe('idempotency keys', () => {
      it('lets exactly one of many concurrent claims of one key run', async () => {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) => store.claimWrite(claim(`owner-${i}`))),
        );
        expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
        expect(results.filter((r) => r.outcome === 'in_progress')).toHaveLength(19);
      });

      it('replays the completed response for the same fingerprint, and says conflict for another', async () => {
        await store.claimWrite(claim('first'));
        await complete(store, 'first');
        expect(await store.claimWrite(claim('second', 'fp-1', at(MINUTE)))).toEqual({
          outcome: 'completed',
          response,
        });
        expect(await store.claimWrite(claim('third', 'fp-2', at(MINUTE)))).toEqual({
          outcome: 'conflict',
        });
      });

      it('says conflict for another fingerprint while the first is still running', async () => {
        await store.claimWrite(claim('first'));
        expect(await store.claimWrite(claim('second', 'fp-2'))).toEqual({ outcome: 'conflict' });
      });

      it('scopes keys by client: the same key of another client is a new claim', async () => {
        await store.claimWrite(claim('first'));
        expect(await store.claimWrite(claim('other', 'fp-2', T0, 'key-1', 'partner-b'))).toEqual({
          outcome: 'claimed',
        });
      });

      it('forgets a completed response after the retention period (24 h)', async () => {
        await store.claimWrite(claim('first'));
        await complete(store, 'first');
        expect((await store.claimWrite(claim('second', 'fp-1', at(DAY - 1)))).outcome).toBe('completed');
        expect((await store.claimWrite(claim('third', 'fp-2', at(DAY)))).outcome).toBe('claimed');
      });

      it('lets a new claim take over an unfinished one once its lease ran out', async () => {
        await store.claimWrite(claim('crashed'));
        expect((await store.claimWrite(claim('retry', 'fp-1', at(29_999)))).outcome).toBe('in_progress');
        expect((await store.claimWrite(claim('retry', 'fp-1', at(30_000)))).outcome).toBe('claimed');
        // The crashed owner can no longer complete it.
        await complete(store, 'crashed', at(30_001));
        expect((await store.claimWrite(claim('third', 'fp-1', at(30_002)))).outcome).toBe('in_progress');
      });

      it('release frees the key for the next request, and only the owner may release', async () => {
        await store.claimWrite(claim('first'));
        await store.releaseIdempotencyKey({ clientId: 'partner-a', key: 'key-1', owner: 'someone-else' });
        expect((await store.claimWrite(claim('second'))).outcome).toBe('in_progress');
        await store.releaseIdempotencyKey({ clientId: 'partner-a', key: 'key-1', owner: 'first' });
        expect((await store.claimWrite(claim('second', 'fp-2'))).outcome).toBe('claimed');
      });

      it('a completed response is not released', async () => {
        await store.claimWrite(claim('first'));
        await complete(store, 'first');
        await store.releaseIdempotencyKey({ clientId: 'partner-a', key: 'key-1', owner: 'first' });
        expect((await store.claimWrite(claim('second'))).outcome).toBe('completed');
      });
    });

    describe('rate limits', () => {
      const hit = (now: Date, key = 'write:partner-a') =>
        store.consumeRateLimit({ key, limit: 3, windowMs: MINUTE, now });

      it('spec 8 sliding window: admits `limit` hits in the last `windowMs` and tells when the next one is', async () => {
        const results = await Promise.all([0, 1, 2, 3, 4].map(() => hit(at(10_000))));
        expect(results.filter((r) => r.allowed)).toHaveLength(3);
        expect(results.map((r) => r.remaining).sort()).toEqual([0, 0, 0, 1, 2]);
        // Counted by the second: the hits of second 10 leave the window at second 71.
        for (const r of results.filter((r) => !r.allowed)) {
          expect(r.resetAt.toISOString()).toBe(at(71_000).toISOString());
        }
        expect((await hit(at(70_999))).allowed).toBe(false);
        expect((await hit(at(71_000))).allowed).toBe(true);
      });

      it('DESIGN 16: no span of `windowMs` admits more than `limit`, across a minute boundary too', async () => {
        const burst = async (now: Date) =>
          (await Promise.all([0, 1, 2, 3].map(() => hit(now)))).filter((r) => r.allowed).length;
        expect(await burst(at(59_500))).toBe(3);
        // A fixed window would open again at second 60; the sliding one waits for second 59's hits to leave.
        expect(await burst(at(60_000))).toBe(0);
        expect(await burst(at(119_999))).toBe(0);
        expect(await burst(at(120_000))).toBe(3);
      });

      it('counts only admitted hits: refused ones do not push the next admission away', async () => {
        for (let i = 0; i < 3; i++) await hit(T0);
        for (let i = 0; i < 10; i++) expect((await hit(at(30_000))).allowed).toBe(false);
        expect((await hit(at(61_000))).allowed).toBe(true);
      });

      it('counts each key on its own', async () => {
        for (let i = 0; i < 3; i++) await hit(T0);
        expect((await hit(T0)).allowed).toBe(false);
        expect((await hit(T0, 'write:partner-b')).allowed).toBe(true);
      });
    });

    describe("a write's claim: its rate-limit hit, its key and its reads in one step", () => {
      const hit = (now = T0, limit = 3) => ({ key: 'write:partner-a', limit, windowMs: MINUTE, now });
      const limited = (owner: string, fingerprint = 'fp-1', now = T0) =>
        store.claimWrite({ ...claim(owner, fingerprint, now), hit: hit(now) });

      it('spec 8: counts the hit whatever the claim answers, and claims only within the limit', async () => {
        expect(await limited('first')).toEqual({ outcome: 'claimed' });
        expect(await limited('second')).toEqual({ outcome: 'in_progress' });
        await complete(store, 'first');
        expect(await limited('third')).toEqual({ outcome: 'completed', response });
        const refused = await limited('fourth', 'fp-2');
        expect(refused).toEqual({
          outcome: 'rate_limited',
          limit: { allowed: false, remaining: 0, resetAt: at(MINUTE + 1000) },
        });
        // The refused request claimed nothing: the key still replays the first answer.
        expect(await store.claimWrite(claim('fifth', 'fp-1', at(1)))).toEqual({
          outcome: 'completed',
          response,
        });
        expect((await store.consumeRateLimit(hit())).allowed).toBe(false);
      });

      it('lets exactly one of many concurrent writes of one key run, and counts every one', async () => {
        const results = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            store.claimWrite({ ...claim(`owner-${i}`), hit: hit(T0, 100) }),
          ),
        );
        expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
        expect(results.filter((r) => r.outcome === 'in_progress')).toHaveLength(4);
        expect((await store.consumeRateLimit(hit(T0, 100))).remaining).toBe(94);
      });

      it('says conflict for another fingerprint on a claimed key', async () => {
        await limited('first');
        expect(await limited('second', 'fp-2')).toEqual({ outcome: 'conflict' });
      });

      it("answers an authorize's reads with a granted claim exactly as the three reads do, and only then", async () => {
        const active = authorizationFixture({ imei: deviceImei(1) });
        const exchanged = authorizationFixture({ imei: deviceImei(2) });
        const proposal = proposalFixture();
        await store.insertProposal(proposal);
        await store.createAuthorization({ authorization: active, now: T0 });
        await store.createAuthorization({ authorization: exchanged, now: T0 });
        await store.updateAuthorization({
          record: confirmedThenExchanged(exchanged),
          expectedVersion: 1,
          now: at(3 * MINUTE),
        });
        const now = at(5 * MINUTE);
        const reads = { clientTaxId: active.clientTaxId, storeId: active.storeId, imei: active.imei };
        const write = (owner: string, limit?: number) =>
          store.claimWrite({
            ...claim(owner, 'fp-1', now),
            reads,
            ...(limit === undefined ? {} : { hit: hit(now, limit) }),
          });
        const granted = await write('first', 100);
        const found = {
          activeByImei: await store.findActiveByImei({ imei: active.imei, now }),
          unusedProposal: await store.findUnusedProposal({ ...reads, now }),
          exchangeNotices: await store.findExchangeNotices({ clientId: 'partner-a', ...reads }),
        };
        expect(found.activeByImei?.authorizationId).toBe(active.authorizationId);
        expect(found.unusedProposal).toEqual(proposal);
        expect(found.exchangeNotices.map((r) => r.authorizationId)).toEqual([exchanged.authorizationId]);
        expect(granted).toEqual({ outcome: 'claimed', found });
        expect(await write('second', 100)).toEqual({ outcome: 'in_progress' });
        // Spec 8: a hit over the limit claims nothing and reads nothing.
        expect((await write('third', 2)).outcome).toBe('rate_limited');
        // Without a hit (a duplicate claiming again after its wait), a granted claim reads too.
        await store.releaseIdempotencyKey({ clientId: 'partner-a', key: 'key-1', owner: 'first' });
        expect(await write('fourth')).toEqual({ outcome: 'claimed', found });
      });
    });

    describe('the atomic phase: a write and its idempotent answer commit together (issue 19)', () => {
      const answer = (owner: string, now = T0) => ({
        clientId: 'partner-a',
        key: 'key-1',
        owner,
        response,
        now,
      });

      it('createAuthorization with an answer stores the record and completes the key in one step', async () => {
        await store.claimWrite(claim('first'));
        const record = authorizationFixture();
        expect(
          await store.createAuthorization({ authorization: record, answer: answer('first'), now: T0 }),
        ).toEqual({
          ok: true,
        });
        expect(await store.getAuthorization(record.authorizationId)).toBeDefined();
        expect(await store.claimWrite(claim('retry', 'fp-1', at(1)))).toEqual({
          outcome: 'completed',
          response,
        });
      });

      it('a refused createAuthorization (R-10) stores neither the record nor the answer', async () => {
        await store.createAuthorization({ authorization: authorizationFixture(), now: T0 });
        await store.claimWrite(claim('first'));
        const record = authorizationFixture();
        expect(
          await store.createAuthorization({ authorization: record, answer: answer('first'), now: T0 }),
        ).toEqual({ ok: false, reason: 'imei_already_financed' });
        expect(await store.getAuthorization(record.authorizationId)).toBeUndefined();
        expect((await store.claimWrite(claim('retry', 'fp-1', at(1)))).outcome).toBe('in_progress');
      });

      it('an owner whose lease was taken over writes nothing: claim_lost, and the new owner runs once', async () => {
        await store.claimWrite(claim('slow'));
        expect((await store.claimWrite(claim('retry', 'fp-1', at(30_000)))).outcome).toBe('claimed');
        const create = (authorization: AuthorizationRecord, owner: string) =>
          store.createAuthorization({ authorization, answer: answer(owner, at(30_001)), now: T0 });
        const late = authorizationFixture();
        expect(await create(late, 'slow')).toEqual({ ok: false, reason: 'claim_lost' });
        expect(await store.getAuthorization(late.authorizationId)).toBeUndefined();
        expect(await create(authorizationFixture(), 'retry')).toEqual({ ok: true });
      });

      it('updateAuthorization with an answer writes both, or neither when stale or the claim is lost', async () => {
        const record = authorizationFixture();
        await store.createAuthorization({ authorization: record, now: T0 });
        await store.claimWrite(claim('first'));
        const next = { ...record, updatedAt: at(1).toISOString(), correlationId: 'corr-2' };
        const update = (expectedVersion: number, owner: string) =>
          store.updateAuthorization({ record: next, expectedVersion, answer: answer(owner), now: at(1) });
        expect(await update(7, 'first')).toEqual({ ok: false, reason: 'stale' });
        expect((await store.claimWrite(claim('probe', 'fp-1', at(2)))).outcome).toBe('in_progress');
        expect(await update(1, 'other')).toEqual({ ok: false, reason: 'claim_lost' });
        expect((await store.getAuthorization(record.authorizationId))?.version).toBe(1);
        const written = await update(1, 'first');
        expect(written.ok).toBe(true);
        expect((await store.getAuthorization(record.authorizationId))?.correlationId).toBe('corr-2');
        expect(await store.claimWrite(claim('retry', 'fp-1', at(3)))).toEqual({
          outcome: 'completed',
          response,
        });
      });
    });

    describe('tokens', () => {
      it('finds a saved token by its hash only', async () => {
        const token = {
          tokenHash: 'hash-1',
          clientId: 'partner-a',
          scopes: ['sales:authorize'],
          environment: 'sandbox',
          issuedAt: T0.toISOString(),
          expiresAt: at(60 * MINUTE).toISOString(),
        };
        await store.saveToken(token);
        expect(await store.findToken('hash-1')).toEqual(token);
        expect(await store.findToken('hash-2')).toBeUndefined();
      });

      it('RFC 8705: keeps the certificate a token is bound to (cnf x5t#S256), and none for an unbound one', async () => {
        const bound = {
          tokenHash: 'hash-bound',
          clientId: 'partner-a',
          scopes: ['sales:authorize'],
          environment: 'sandbox',
          issuedAt: T0.toISOString(),
          expiresAt: at(60 * MINUTE).toISOString(),
          certificateSha256: 'p8BkcN3xZ2TSI-fF-bMtOPKlxOmwzQnpPF741aPP518',
        };
        await store.saveToken(bound);
        await store.saveToken({ ...bound, tokenHash: 'hash-unbound', certificateSha256: undefined });
        expect(await store.findToken('hash-bound')).toEqual(bound);
        expect((await store.findToken('hash-unbound'))?.certificateSha256).toBeUndefined();
      });

      it('purges tokens a day after they expired', async () => {
        await store.saveToken({
          tokenHash: 'hash-1',
          clientId: 'partner-a',
          scopes: [],
          environment: 'sandbox',
          issuedAt: T0.toISOString(),
          expiresAt: at(60 * MINUTE).toISOString(),
        });
        await store.purgeExpired({ now: at(60 * MINUTE + DAY - 1), retentionMs: DAY });
        expect(await store.findToken('hash-1')).toBeDefined();
        await store.purgeExpired({ now: at(60 * MINUTE + DAY), retentionMs: DAY });
        expect(await store.findToken('hash-1')).toBeUndefined();
      });
    });

    describe('authorizations: R-10 and R-06', () => {
      it('R-10: refuses a second active authorization of one IMEI', async () => {
        expect(await store.createAuthorization({ authorization: authorizationFixture(), now: T0 })).toEqual({
          ok: true,
        });
        expect(
          await store.createAuthorization({ authorization: authorizationFixture(), now: at(MINUTE) }),
        ).toEqual({
          ok: false,
          reason: 'imei_already_financed',
        });
      });

      it('R-10: of many concurrent authorizations of one IMEI exactly one is stored', async () => {
        const results = await Promise.all(
          Array.from({ length: 25 }, () =>
            store.createAuthorization({ authorization: authorizationFixture(), now: T0 }),
          ),
        );
        expect(results.filter((r) => r.ok)).toHaveLength(1);
      });

      it('R-06: an overdue AUTHORIZED record frees its IMEI and is stored as EXPIRED', async () => {
        const first = authorizationFixture();
        await store.createAuthorization({ authorization: first, now: T0 });
        expect(await store.findActiveByImei({ imei: first.imei, now: at(15 * MINUTE - 1) })).toMatchObject({
          authorizationId: first.authorizationId,
        });
        expect(await store.findActiveByImei({ imei: first.imei, now: at(15 * MINUTE) })).toBeUndefined();
        const second = authorizationFixture({ issuedAt: at(15 * MINUTE).toISOString() });
        expect(await store.createAuthorization({ authorization: second, now: at(15 * MINUTE) })).toEqual({
          ok: true,
        });
        expect(await store.getAuthorization(first.authorizationId)).toMatchObject({
          status: 'EXPIRED',
          version: 2,
        });
      });

      it('R-10: a CONFIRMED record holds its IMEI past 15 minutes; a CANCELLED one frees it', async () => {
        const first = authorizationFixture();
        await store.createAuthorization({ authorization: first, now: T0 });
        const confirmed = await store.updateAuthorization({
          record: { ...first, status: 'CONFIRMED', confirmedAt: at(MINUTE).toISOString() },
          expectedVersion: 1,
          now: at(MINUTE),
        });
        expect(confirmed).toMatchObject({ ok: true, record: { status: 'CONFIRMED', version: 2 } });
        const later = at(DAY);
        expect(await store.findActiveByImei({ imei: first.imei, now: later })).toMatchObject({
          status: 'CONFIRMED',
        });
        expect(
          (await store.createAuthorization({ authorization: authorizationFixture(), now: later })).ok,
        ).toBe(false);
        await store.updateAuthorization({
          record: { ...first, status: 'CANCELLED', version: 2 },
          expectedVersion: 2,
          now: later,
        });
        expect(await store.findActiveByImei({ imei: first.imei, now: later })).toBeUndefined();
        expect(
          (await store.createAuthorization({ authorization: authorizationFixture(), now: later })).ok,
        ).toBe(true);
      });

      it('updates are compare-and-set on version: the second writer of one version is stale', async () => {
        const first = authorizationFixture();
        await store.createAuthorization({ authorization: first, now: T0 });
        const writes = await Promise.all(
          (['CONFIRMED', 'CANCELLED'] as const).map((status) =>
            store.updateAuthorization({ record: { ...first, status }, expectedVersion: 1, now: T0 }),
          ),
        );
        expect(writes.filter((w) => w.ok)).toHaveLength(1);
        expect(writes.filter((w) => !w.ok)).toEqual([{ ok: false, reason: 'stale' }]);
        expect(await store.updateAuthorization({ record: first, expectedVersion: 1, now: T0 })).toEqual({
          ok: false,
          reason: 'stale',
        });
        expect(
          await store.updateAuthorization({
            record: authorizationFixture({ imei: '490154203237518' }),
            expectedVersion: 1,
            now: T0,
          }),
        ).toEqual({ ok: false, reason: 'stale' });
      });

      it('a late confirm may move an overdue AUTHORIZED record to CONFIRMED (the store never expires the record it writes)', async () => {
        const first = authorizationFixture();
        await store.createAuthorization({ authorization: first, now: T0 });
        const result = await store.updateAuthorization({
          record: { ...first, status: 'CONFIRMED' },
          expectedVersion: 1,
          now: at(20 * MINUTE),
        });
        expect(result).toMatchObject({ ok: true, record: { status: 'CONFIRMED', version: 2 } });
      });

      it('R-10: leaving EXPIRED for an active status is refused when another record holds the IMEI', async () => {
        const first = authorizationFixture();
        await store.createAuthorization({ authorization: first, now: T0 });
        await store.updateAuthorization({
          record: { ...first, status: 'EXPIRED' },
          expectedVersion: 1,
          now: at(16 * MINUTE),
        });
        await store.createAuthorization({
          authorization: authorizationFixture({ issuedAt: at(16 * MINUTE).toISOString() }),
          now: at(16 * MINUTE),
        });
        expect(
          await store.updateAuthorization({
            record: { ...first, status: 'CONFIRMED' },
            expectedVersion: 2,
            now: at(17 * MINUTE),
          }),
        ).toEqual({ ok: false, reason: 'imei_already_financed' });
      });

      it('keeps records apart from their callers: mutating a returned record changes nothing stored', async () => {
        const first = authorizationFixture();
        await store.createAuthorization({ authorization: first, now: T0 });
        first.status = 'CANCELLED';
        const read = await store.getAuthorization(first.authorizationId);
        expect(read?.status).toBe('AUTHORIZED');
        read!.cart.items[0]!.quantity = 7;
        expect((await store.getAuthorization(first.authorizationId))?.cart.items[0]?.quantity).toBe(1);
        expect(await store.getAuthorization('auth_missing')).toBeUndefined();
      });

      it('round-trips every field of a full record', async () => {
        const full = authorizationFixture({
          correlationId: randomUUID(),
          cart: {
            ...authorizationFixture().cart,
            services: [
              {
                serviceId: 'svc-1',
                type: 'INSURANCE',
                name: 'Seguro',
                price: { amount: 0, currency: 'BRL' },
              },
            ],
          },
        });
        await store.createAuthorization({ authorization: full, now: T0 });
        const next = confirmedThenExchanged(full);
        const written = await store.updateAuthorization({
          record: next,
          expectedVersion: 1,
          now: at(3 * MINUTE),
        });
        expect(written).toEqual({ ok: true, record: { ...next, version: 2 } });
        expect(await store.getAuthorization(full.authorizationId)).toEqual({ ...next, version: 2 });
      });

      it('C-20: holds any text the schemas let through (accents, emoji, control characters but NUL, quotes, backslashes)', async () => {
        const base = authorizationFixture();
        const texts = fc.sample(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }), {
          numRuns: 20,
          seed: 12,
        });
        const unusual = ['Conceição 😀 ção', '\u0001\u001f\u007f\t\n', '"\'\\{}[]', '\uFFFF\uFEFF', ...texts];
        for (const [index, text] of unusual.entries()) {
          const record = authorizationFixture({
            imei: deviceImei(900 + index),
            cart: {
              ...base.cart,
              clientName: text,
              items: [{ ...base.cart.items[0]!, name: text }],
            },
          });
          expect(schemas.authorizeRequest.safeParse(record.cart).success).toBe(true);
          await store.createAuthorization({ authorization: record, now: T0 });
          expect((await store.getAuthorization(record.authorizationId))?.cart).toEqual(record.cart);
        }
      });
    });

    describe('proposals and R-11 reuse slots', () => {
      it('finds the newest proposal of a CPF and store that no live authorization uses', async () => {
        const older = proposalFixture({ approvedAt: T0.toISOString() });
        const newer = proposalFixture({ approvedAt: at(MINUTE).toISOString() });
        await store.insertProposal(older);
        await store.insertProposal(newer);
        await store.insertProposal(
          proposalFixture({ storeId: 'store-2', approvedAt: at(2 * MINUTE).toISOString() }),
        );
        await store.insertProposal(
          proposalFixture({ clientTaxId: '11144477735', approvedAt: at(2 * MINUTE).toISOString() }),
        );
        const query = { clientTaxId: '52998224725', storeId: 'store-1', now: at(2 * MINUTE) };
        expect(await store.findUnusedProposal(query)).toEqual(newer);
        expect(await store.getProposal(newer.proposalId)).toEqual(newer);
        await store.createAuthorization({
          authorization: authorizationFixture({ proposalId: newer.proposalId }),
          now: T0,
        });
        expect(await store.findUnusedProposal(query)).toEqual(older);
        // Once the authorization using it expires, the proposal is unused again.
        expect(await store.findUnusedProposal({ ...query, now: at(15 * MINUTE) })).toEqual(newer);
      });

      it('stores a proposal approved during the request together with its authorization', async () => {
        const proposal = proposalFixture({ source: 'CREDIT_ENGINE' });
        const authorization = authorizationFixture({ proposalId: proposal.proposalId });
        expect(await store.createAuthorization({ authorization, newProposal: proposal, now: T0 })).toEqual({
          ok: true,
        });
        expect(await store.getProposal(proposal.proposalId)).toEqual(proposal);
        expect(await store.listProposalUses(proposal.proposalId)).toEqual([authorization]);
      });

      it('a refused authorization stores neither itself nor its new proposal', async () => {
        await store.createAuthorization({ authorization: authorizationFixture(), now: T0 });
        const proposal = proposalFixture({ source: 'CREDIT_ENGINE' });
        const refused = authorizationFixture({ proposalId: proposal.proposalId });
        expect(
          (await store.createAuthorization({ authorization: refused, newProposal: proposal, now: T0 })).ok,
        ).toBe(false);
        expect(await store.getProposal(proposal.proposalId)).toBeUndefined();
        expect(await store.getAuthorization(refused.authorizationId)).toBeUndefined();
      });

      it('R-11: one live record per (proposal, use): concurrent reuses of one slot store exactly one', async () => {
        const proposalId = 'prop_shared';
        const results = await Promise.all(
          ['356938035643809', '490154203237518', '352099001761481'].map((imei) =>
            store.createAuthorization({
              authorization: authorizationFixture({ imei, proposalId, proposalUse: 1 }),
              now: T0,
            }),
          ),
        );
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.filter((r) => !r.ok)).toEqual([
          { ok: false, reason: 'proposal_use_taken' },
          { ok: false, reason: 'proposal_use_taken' },
        ]);
        const next = authorizationFixture({ imei: '353918053321657', proposalId, proposalUse: 2 });
        expect(await store.createAuthorization({ authorization: next, now: T0 })).toEqual({ ok: true });
        expect((await store.listProposalUses(proposalId)).map((r) => r.proposalUse)).toEqual([1, 2]);
      });

      it('R-11: an expired use frees its slot; a cancelled one keeps it', async () => {
        const proposalId = 'prop_slots';
        const expiring = authorizationFixture({ proposalId });
        await store.createAuthorization({ authorization: expiring, now: T0 });
        const retry = authorizationFixture({
          proposalId,
          imei: '490154203237518',
          issuedAt: at(15 * MINUTE).toISOString(),
        });
        expect(await store.createAuthorization({ authorization: retry, now: at(15 * MINUTE) })).toEqual({
          ok: true,
        });
        expect((await store.getAuthorization(expiring.authorizationId))?.status).toBe('EXPIRED');
        await store.updateAuthorization({
          record: { ...retry, status: 'CANCELLED' },
          expectedVersion: 1,
          now: at(16 * MINUTE),
        });
        const third = authorizationFixture({
          proposalId,
          imei: '352099001761481',
          issuedAt: at(16 * MINUTE).toISOString(),
        });
        expect(await store.createAuthorization({ authorization: third, now: at(16 * MINUTE) })).toEqual({
          ok: false,
          reason: 'proposal_use_taken',
        });
        expect(
          await store.findUnusedProposal({ clientTaxId: '52998224725', storeId: 'store-1', now: at(DAY) }),
        ).toBeUndefined();
      });
    });

    describe('queries of the workers and of R-11', () => {
      const cancellation = (over: Partial<NonNullable<AuthorizationRecord['cancellation']>> = {}) => ({
        reason: 'EXCHANGE',
        noticedAt: T0.toISOString(),
        verification: 'PENDING' as const,
        attempts: 0,
        nextAttemptAt: T0.toISOString(),
        verifiedAt: null,
        ...over,
      });

      it("lists a client's EXCHANGE notices for a CPF, newest first, other clients' never", async () => {
        const imeis = ['356938035643809', '490154203237518', '352099001761481', '353918053321657'];
        const older = authorizationFixture({ imei: imeis[0], cancellation: cancellation() });
        const newer = authorizationFixture({
          imei: imeis[1],
          issuedAt: at(MINUTE).toISOString(),
          cancellation: cancellation(),
        });
        const otherReason = authorizationFixture({
          imei: imeis[2],
          cancellation: cancellation({ reason: 'OTHER' }),
        });
        const otherClient = authorizationFixture({
          imei: imeis[3],
          clientId: 'partner-b',
          cancellation: cancellation(),
        });
        for (const authorization of [older, newer, otherReason, otherClient]) {
          await store.createAuthorization({ authorization, now: T0 });
        }
        const notices = await store.findExchangeNotices({
          clientId: 'partner-a',
          clientTaxId: '52998224725',
        });
        expect(notices.map((r) => r.authorizationId)).toEqual([newer.authorizationId, older.authorizationId]);
        expect(
          await store.findExchangeNotices({ clientId: 'partner-a', clientTaxId: '11144477735' }),
        ).toEqual([]);
      });

      it('forgets an EXCHANGE notice once a later notice of the same record gives another reason', async () => {
        const record = authorizationFixture({ cancellation: cancellation({ verification: 'CONTRADICTED' }) });
        await store.createAuthorization({ authorization: record, now: T0 });
        const query = { clientId: 'partner-a', clientTaxId: record.clientTaxId };
        expect(await store.findExchangeNotices(query)).toHaveLength(1);
        await store.updateAuthorization({
          record: { ...record, cancellation: cancellation({ reason: 'OTHER' }) },
          expectedVersion: 1,
          now: T0,
        });
        expect(await store.findExchangeNotices(query)).toEqual([]);
      });

      it('lists pending cancellations that are due, oldest notice first, up to the limit; never one given up', async () => {
        const imeis = [
          '356938035643809',
          '490154203237518',
          '352099001761481',
          '353918053321657',
          '862123456789012',
        ];
        const due1 = authorizationFixture({
          imei: imeis[0],
          cancellation: cancellation({ noticedAt: at(2).toISOString() }),
        });
        const due2 = authorizationFixture({
          imei: imeis[1],
          cancellation: cancellation({ noticedAt: at(1).toISOString() }),
        });
        const later = authorizationFixture({
          imei: imeis[2],
          cancellation: cancellation({
            noticedAt: at(3).toISOString(),
            nextAttemptAt: at(MINUTE).toISOString(),
          }),
        });
        const verified = authorizationFixture({
          imei: imeis[3],
          status: 'CANCELLED',
          cancellation: cancellation({
            verification: 'VERIFIED',
            nextAttemptAt: null,
            verifiedAt: T0.toISOString(),
          }),
        });
        // R-08 S-4: the verifier stopped searching (48 tries or lapsed unconfirmed); the notice stays PENDING.
        const givenUp = authorizationFixture({
          imei: imeis[4],
          cancellation: cancellation({ noticedAt: at(0).toISOString(), attempts: 48, nextAttemptAt: null }),
        });
        for (const authorization of [due1, due2, later, verified, givenUp]) {
          await store.createAuthorization({ authorization, now: T0 });
        }
        const ids = (records: AuthorizationRecord[]) => records.map((r) => r.authorizationId);
        expect(ids(await store.listPendingCancellations({ now: T0, limit: 10 }))).toEqual([
          due2.authorizationId,
          due1.authorizationId,
        ]);
        expect(ids(await store.listPendingCancellations({ now: at(MINUTE), limit: 2 }))).toEqual([
          due2.authorizationId,
          due1.authorizationId,
        ]);
        expect(await store.listPendingCancellations({ now: at(MINUTE), limit: 5 })).toHaveLength(3);
      });

      it('lists unconfirmed, uncancelled AUTHORIZED or EXPIRED records issued since a moment, oldest first', async () => {
        const imeis = ['356938035643809', '490154203237518', '352099001761481', '353918053321657'];
        const old = authorizationFixture({ imei: imeis[0], issuedAt: at(-DAY).toISOString() });
        const open = authorizationFixture({ imei: imeis[1], issuedAt: at(MINUTE).toISOString() });
        const expired = authorizationFixture({ imei: imeis[2], status: 'EXPIRED' });
        const noticed = authorizationFixture({ imei: imeis[3], cancellation: cancellation() });
        for (const authorization of [old, open, expired, noticed]) {
          await store.createAuthorization({ authorization, now: T0 });
        }
        const listed = await store.listUnconfirmed({ issuedAfter: T0, limit: 10 });
        expect(listed.map((r) => r.authorizationId)).toEqual([expired.authorizationId, open.authorizationId]);
        expect(await store.listUnconfirmed({ issuedAfter: T0, limit: 1 })).toHaveLength(1);
      });
    });

    describe('worker leases (several instances running one worker)', () => {
      const lease = (owner: string, now = T0, ms = MINUTE) => ({
        owner,
        now,
        until: new Date(now.getTime() + ms),
      });
      const imeis = ['356938035643809', '490154203237518', '352099001761481', '353918053321657'];

      it('a record a leased listing returned is not returned to another until the lease ends', async () => {
        const notices = imeis.slice(0, 2).map((imei, i) =>
          authorizationFixture({
            imei,
            cancellation: {
              reason: 'OTHER',
              noticedAt: at(i).toISOString(),
              verification: 'PENDING',
              attempts: 0,
              nextAttemptAt: T0.toISOString(),
              verifiedAt: null,
            },
          }),
        );
        for (const authorization of notices) await store.createAuthorization({ authorization, now: T0 });
        const ids = (records: AuthorizationRecord[]) => records.map((r) => r.authorizationId);
        const [first, second] = notices.map((r) => r.authorizationId);
        expect(ids(await store.listPendingCancellations({ now: T0, limit: 1, lease: lease('a') }))).toEqual([
          first,
        ]);
        expect(ids(await store.listPendingCancellations({ now: T0, limit: 5, lease: lease('b') }))).toEqual([
          second,
        ]);
        expect(await store.listPendingCancellations({ now: T0, limit: 5, lease: lease('c') })).toEqual([]);
        // A listing without a lease is a plain read.
        expect(await store.listPendingCancellations({ now: T0, limit: 5 })).toHaveLength(2);
        const later = at(MINUTE);
        expect(
          ids(await store.listPendingCancellations({ now: later, limit: 5, lease: lease('c', later) })),
        ).toEqual([first, second]);
      });

      it('concurrent leased listings of unconfirmed records share them out, each to one caller', async () => {
        for (const imei of imeis) {
          await store.createAuthorization({ authorization: authorizationFixture({ imei }), now: T0 });
        }
        const listings = await Promise.all(
          ['a', 'b', 'c', 'd', 'e', 'f'].map((owner) =>
            store.listUnconfirmed({ issuedAfter: T0, limit: 2, lease: lease(owner) }),
          ),
        );
        const handedOut = listings.flat().map((r) => r.authorizationId);
        expect(handedOut).toHaveLength(imeis.length);
        expect(new Set(handedOut).size).toBe(imeis.length);
      });
    });

    describeWebhookEventConformance(() => store);
    describeLifecycleConformance(() => store);

    describe('catalog snapshots', () => {
      it('keeps the latest snapshot per partner', async () => {
        expect(await store.getCatalogSnapshot('partner-a')).toBeUndefined();
        await store.saveCatalogSnapshot({ partnerId: 'partner-a', snapshot: { v: 1 }, syncedAt: T0 });
        await store.saveCatalogSnapshot({
          partnerId: 'partner-a',
          snapshot: { v: 2, list: [1, 'a', null] },
          syncedAt: at(DAY),
        });
        await store.saveCatalogSnapshot({ partnerId: 'partner-b', snapshot: { v: 9 }, syncedAt: T0 });
        expect(await store.getCatalogSnapshot('partner-a')).toEqual({
          snapshot: { v: 2, list: [1, 'a', null] },
          syncedAt: at(DAY).toISOString(),
        });
      });
    });
  });
}
