// The contract's edges (issue 12) through service.fetch, for any store: money, time, R-01, storable text, failed token requests.
import { randomUUID } from 'node:crypto';
import { errorCatalog, MAX_SALE_AMOUNT_CENTS, money } from '@fin/core';
import { DEFAULT_CLOCK_SKEW_MS, defaultLimits, type Store } from '@fin/server-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Answer,
  cart,
  confirmation,
  DAY,
  deviceImei,
  harness,
  MINUTE,
  PARTNER_A,
  T0,
} from './support/harness.js';

const SKEW = DEFAULT_CLOCK_SKEW_MS;
const GRACE = defaultLimits.confirmationGraceMs;
const YEAR = 365 * DAY;

/** Never a success, never a 5xx: the refusal the edge must give, with its code and the field named. */
function expectRefused(answer: Answer, status: number, code: string, field?: string): void {
  expect([answer.status, answer.body?.error?.code]).toEqual([status, code]);
  if (field !== undefined) {
    expect(answer.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  }
}

/** Text PostgreSQL cannot hold: a NUL or an unpaired surrogate, somewhere in otherwise fine text. */
const hostileText = fc
  .tuple(
    fc.string({ maxLength: 10 }),
    fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'a\uDC00\uD800'),
    fc.string({ maxLength: 10 }),
  )
  .map(([before, bad, after]) => `${before}${bad}${after}`);

/** Every free-text field of a cart, with a setter. */
const cartTextFields: Record<string, (body: ReturnType<typeof cart>, value: string) => void> = {
  clientName: (b, v) => {
    b.clientName = v;
  },
  clientPhoneNumber: (b, v) => {
    b.clientPhoneNumber = `11987654321${v}`;
  },
  sellerId: (b, v) => {
    b.sellerId = v;
  },
  sellerName: (b, v) => {
    b.sellerName = v;
  },
  planId: (b, v) => {
    b.planId = v;
  },
  'items.0.name': (b, v) => {
    b.items[0]!.name = v;
  },
  'items.0.sku': (b, v) => {
    b.items[0]!.sku = v;
  },
  'items.0.productType': (b, v) => {
    b.items[0]!.productType = v;
  },
  'services.0.name': (b, v) => {
    b.services![0]!.name = v;
  },
  'services.0.serviceId': (b, v) => {
    b.services![0]!.serviceId = v;
  },
};

export function describeContractEdges(name: string, makeStore: () => Store | Promise<Store>): void {
  describe(`the contract's edges on ${name}`, () => {
    /** A harness on a fresh store, limits out of the way unless a test is about them. */
    const edgeHarness = async (options: Parameters<typeof harness>[0] = {}) =>
      harness({
        store: await makeStore(),
        ...options,
        // Tokens outlive the clock moves of the time tests.
        limits: { writesPerMinute: 1_000_000, tokenTtlSeconds: 30 * 86_400, ...options.limits },
      });
    let device = 0;
    const nextImei = () => deviceImei(500_000 + device++);

    describe('C-18, C-19: money a financing contract can hold', () => {
      it('C-18: a negative, fractional or over-ceiling amount anywhere in the cart is 422 naming the field, never 200 or 500', async () => {
        const h = await edgeHarness();
        const badAmount = fc.oneof(
          fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }),
          fc.integer({ min: MAX_SALE_AMOUNT_CENTS + 1, max: Number.MAX_SAFE_INTEGER }),
          fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)),
        );
        const where = fc.constantFrom(
          'items.0.unitPrice',
          'items.0.totalPrice',
          'services.0.price',
          'totals.productsTotal',
          'totals.servicesTotal',
          'totals.grandTotal',
        );
        await fc.assert(
          fc.asyncProperty(badAmount, where, async (amount, path) => {
            const body = cart({ services: [1_000], imei: nextImei() }) as unknown as Record<string, unknown>;
            const [top, ...rest] = path.split('.');
            const holder = rest.length === 2 ? (body[top!] as unknown[])[0] : body[top!];
            (holder as Record<string, unknown>)[rest.at(-1)!] = { amount, currency: 'BRL' };
            expectRefused(await h.authorize(body), 422, 'validation_error', `${path}.amount`);
          }),
          { numRuns: 40 },
        );
      });

      it('C-18: a zero grandTotal, even one a negative "discount" line brings to 0, is never authorized', async () => {
        const h = await edgeHarness();
        expectRefused(
          await h.authorize(cart({ price: 0, imei: nextImei() })),
          422,
          'validation_error',
          'totals.grandTotal.amount',
        );
        const offset = cart({ imei: nextImei() });
        offset.items.push({
          sku: 'DISCOUNT',
          productType: 'ACCESSORY',
          name: 'Desconto',
          quantity: 1,
          unitPrice: { amount: -250_000, currency: 'BRL' },
          totalPrice: { amount: -250_000, currency: 'BRL' },
        });
        offset.totals = {
          productsTotal: money.brl(0),
          servicesTotal: money.brl(0),
          grandTotal: money.brl(0),
        };
        expectRefused(await h.authorize(offset), 422, 'validation_error', 'items.1.unitPrice.amount');
      });

      it('C-19: a line total other than unitPrice x quantity is total_mismatch naming the line', async () => {
        const h = await edgeHarness();
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: 1, max: 99_999 }),
            fc.integer({ min: 2, max: 20 }),
            fc.integer({ min: -99, max: 99 }).filter((d) => d !== 0),
            async (unit, quantity, off) => {
              const body = cart({ imei: nextImei() });
              const line = unit * quantity + off;
              body.items[0] = {
                ...body.items[0]!,
                quantity,
                unitPrice: money.brl(unit),
                totalPrice: money.brl(Math.max(0, line)),
              };
              body.totals = {
                productsTotal: body.items[0].totalPrice,
                servicesTotal: money.brl(0),
                grandTotal: body.items[0].totalPrice,
              };
              if (line <= 0) return;
              expectRefused(await h.authorize(body), 422, 'total_mismatch', 'items.0.totalPrice');
            },
          ),
          { numRuns: 20 },
        );
      });

      it('C-18: a service may lower the ceiling (rules.maxGrandTotal): over it is 422 on authorize and on proposals.approve', async () => {
        const h = await edgeHarness({ rules: { maxGrandTotal: 200_000 } });
        expectRefused(
          await h.authorize(cart({ price: 200_001, imei: nextImei() })),
          422,
          'validation_error',
          'totals.grandTotal.amount',
        );
        expect((await h.authorize(cart({ price: 200_000, imei: nextImei() }))).body.data.authorized).toBe(
          true,
        );
        await expect(
          h.service.proposals.approve({
            clientTaxId: '52998224725',
            storeId: 'store-a1',
            amount: money.brl(200_001),
          }),
        ).rejects.toMatchObject({ code: 'validation_error', details: [{ field: 'amount.amount' }] });
        await expect(
          h.service.proposals.approve({
            clientTaxId: '52998224725',
            storeId: 'store-a1',
            amount: money.brl(0),
          }),
        ).rejects.toMatchObject({ code: 'validation_error' });
        expect(() => harness({ rules: { maxGrandTotal: MAX_SALE_AMOUNT_CENTS + 1 } })).toThrow(TypeError);
      });
    });

    describe('S-21 to S-24: time (spec 1.4, R-06)', () => {
      /** An authorization issued at the harness clock's now. */
      const authorized = async (h: Awaited<ReturnType<typeof edgeHarness>>) => {
        const answer = await h.authorize(cart({ imei: nextImei() }));
        expect(answer.body.data.authorized).toBe(true);
        return { id: answer.body.data.authorizationId as string, issuedAt: h.clock.now().getTime() };
      };

      it('S-21: an invoicedAt before the issue (beyond the skew) or in the future is 422 validation_error; after expiresAt authorization_expired; never 200', async () => {
        const h = await edgeHarness();
        const outOfWindow = fc.oneof(
          fc.integer({ min: -YEAR, max: -SKEW - 1 }).map((offset) => ({ offset, code: 'validation_error' })),
          fc
            .integer({ min: 15 * MINUTE + 1, max: 15 * MINUTE + GRACE })
            .map((offset) => ({ offset, code: 'authorization_expired' })),
        );
        await fc.assert(
          fc.asyncProperty(outOfWindow, fc.integer({ min: 0, max: 14 * MINUTE }), async (invoice, wait) => {
            h.clock.set(T0);
            const { id, issuedAt } = await authorized(h);
            h.clock.advance(Math.max(wait, invoice.offset + 1));
            const answer = await h.confirm(id, confirmation(new Date(issuedAt + invoice.offset)));
            expectRefused(answer, 422, invoice.code, 'invoicedAt');
          }),
          { numRuns: 20 },
        );
        h.clock.set(T0);
        const { id } = await authorized(h);
        expectRefused(
          await h.confirm(id, confirmation(new Date(T0.getTime() + SKEW + 1))),
          422,
          'validation_error',
          'invoicedAt',
        );
      });

      it('S-21: within the skew before the issue is accepted, and every installment falls due after the confirmation', async () => {
        const h = await edgeHarness();
        h.clock.set(T0);
        const { id } = await authorized(h);
        h.clock.advance(MINUTE);
        const answer = await h.confirm(id, confirmation(new Date(T0.getTime() - SKEW)));
        expect(answer.status).toBe(200);
        const confirmedOn = h.clock.now().toISOString().slice(0, 10);
        for (const installment of answer.body.data.installments) {
          expect(installment.dueDate > confirmedOn).toBe(true);
        }
      });

      it('S-22: a sale invoiced in time is confirmed late only within the grace period', async () => {
        const h = await edgeHarness();
        h.clock.set(T0);
        const inGrace = await authorized(h);
        const late = await authorized(h);
        h.clock.advance(15 * MINUTE + GRACE);
        const last = await h.confirm(inGrace.id, confirmation(new Date(T0.getTime() + 5 * MINUTE)));
        expect(last.status).toBe(200);
        const confirmedOn = h.clock.now().toISOString().slice(0, 10);
        for (const installment of last.body.data.installments)
          expect(installment.dueDate > confirmedOn).toBe(true);
        h.clock.advance(1);
        expectRefused(
          await h.confirm(late.id, confirmation(new Date(T0.getTime() + 5 * MINUTE))),
          422,
          'authorization_expired',
          'id',
        );
      });

      it('S-23: a cancelledAt before the issue or in the future (beyond the skew) is 422 naming cancelledAt', async () => {
        const h = await edgeHarness();
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(fc.integer({ min: -YEAR, max: -SKEW - 1 }), fc.integer({ min: SKEW + 1, max: YEAR })),
            async (offset) => {
              h.clock.set(T0);
              const { id } = await authorized(h);
              h.clock.advance(MINUTE);
              const base = offset < 0 ? T0.getTime() : h.clock.now().getTime();
              const answer = await h.cancel(id, {
                reason: 'CUSTOMER_REQUEST',
                cancelledAt: new Date(base + offset).toISOString(),
              });
              expectRefused(answer, 422, 'validation_error', 'cancelledAt');
            },
          ),
          { numRuns: 15 },
        );
      });
    });

    describe('R-01 as written', () => {
      it('R-01: a missing, empty or blank storeId on authorize is 400 store_context_required, whatever else is wrong', async () => {
        const h = await edgeHarness();
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(undefined, null, '', ' ', '\t', '  \n '),
            fc.boolean(),
            async (storeId, alsoBroken) => {
              const body: Record<string, unknown> = { ...cart({ imei: nextImei() }) };
              if (storeId === undefined) delete body.storeId;
              else body.storeId = storeId;
              if (alsoBroken) body.clientTaxId = 'not-a-cpf';
              expectRefused(await h.authorize(body), 400, 'store_context_required', 'storeId');
            },
          ),
          { numRuns: 20 },
        );
      });
    });

    describe('C-20: text every store can hold', () => {
      it('C-20: a NUL or an unpaired surrogate in any string of authorize is 422 naming the field, never 200 or 500', async () => {
        const h = await edgeHarness();
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...Object.keys(cartTextFields)),
            hostileText,
            async (field, value) => {
              const body = cart({ services: [1_000], imei: nextImei() });
              cartTextFields[field]!(body, value);
              const answer = await h.authorize(body);
              expectRefused(answer, 422, 'validation_error', field);
            },
          ),
          { numRuns: 60 },
        );
      });

      it('C-20: ... and in confirm and cancel, in the path id and in the token request', async () => {
        const h = await edgeHarness();
        const answer = await h.authorize(cart({ imei: nextImei() }));
        const id = answer.body.data.authorizationId as string;
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom('saleNumber', 'invoiceNumber', 'description'),
            hostileText,
            async (field, value) => {
              const refused =
                field === 'description'
                  ? await h.cancel(id, { reason: 'OTHER', description: value })
                  : await h.confirm(id, { ...confirmation(T0), [field]: value });
              expectRefused(refused, 422, 'validation_error', field);
            },
          ),
          { numRuns: 30 },
        );
        expectRefused(await h.post('/v1/sales/auth%00x/confirm', confirmation(T0)), 404, 'not_found');
        const token = await h.tokenRequest({
          grant_type: 'client_credentials',
          client_id: 'partner-a\u0000',
          client_secret: 'x',
        });
        expect([token.status, token.body.error, token.body.code]).toEqual([
          400,
          'invalid_request',
          'bad_request',
        ]);
        // Emoji (paired surrogates) and accents are text like any other.
        const fine = cart({ imei: nextImei() });
        fine.clientName = 'Maria Conceição 😀';
        expect((await h.authorize(fine)).body.data.authorized).toBe(true);
      });
    });

    describe('S-12: the token endpoint says what the catalog says', () => {
      it('S-12: a JSON body is 400 invalid_request (bad_request), an unheld scope 400 invalid_scope, as errorCatalog gives them', async () => {
        const h = await edgeHarness();
        const json = await h.service.fetch(
          new Request('http://fin.test/v1/oauth/token', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              grant_type: 'client_credentials',
              client_id: PARTNER_A.clientId,
              client_secret: PARTNER_A.clientSecret,
            }),
          }),
        );
        const jsonBody = (await json.json()) as { error: string; code: string };
        expect([json.status, jsonBody.error, jsonBody.code]).toEqual([
          errorCatalog.bad_request.status,
          'invalid_request',
          'bad_request',
        ]);
        const scope = await h.tokenRequest({
          grant_type: 'client_credentials',
          client_id: PARTNER_A.clientId,
          client_secret: PARTNER_A.clientSecret,
          scope: 'sales:authorize catalog:read',
        });
        expect([scope.status, scope.body.error, scope.body.code]).toEqual([
          errorCatalog.invalid_scope.status,
          'invalid_scope',
          'invalid_scope',
        ]);
      });
    });

    describe('S-25: failed token authentications have their own budget', () => {
      const form = (secret: string) => ({
        grant_type: 'client_credentials',
        client_id: PARTNER_A.clientId,
        client_secret: secret,
      });
      const fromSource = (h: Awaited<ReturnType<typeof edgeHarness>>, secret: string, source: string) =>
        h.service.fetch(
          new Request('http://fin.test/v1/oauth/token', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(form(secret)),
          }),
          { source },
        );

      it('S-25: a flood of wrong secrets for a client (any number of sources) never keeps the right secret from its token', async () => {
        const h = await edgeHarness();
        const statuses = new Set<number>();
        for (let i = 0; i < 120; i++) {
          statuses.add((await fromSource(h, `wrong-${randomUUID()}`, `203.0.113.${i % 7}`)).status);
        }
        expect(statuses).toEqual(new Set([401, 429]));
        const token = await fromSource(h, PARTNER_A.clientSecret, '198.51.100.1');
        expect(token.status).toBe(200);
        expect(((await token.json()) as { access_token: string }).access_token).toBeTruthy();
      });

      it('S-25: failures are limited per source: a source past its budget is answered 429 for any client id', async () => {
        const h = await edgeHarness({ limits: { tokenFailuresPerMinute: 1_000 } });
        for (let i = 0; i < defaultLimits.tokenFailuresPerSourcePerMinute; i++) {
          expect((await fromSource(h, 'wrong', '203.0.113.9')).status).toBe(401);
        }
        const limited = await fromSource(h, 'wrong', '203.0.113.9');
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect((await fromSource(h, 'wrong', '203.0.113.10')).status).toBe(401);
        expect((await fromSource(h, PARTNER_A.clientSecret, '203.0.113.10')).status).toBe(200);
      });
    });
  });
}
