// Property, for any store: no malformed body or header ever gets a 500, and every answer validates against the core envelope schema.
import { randomUUID } from 'node:crypto';
import { schemas } from '@fin/core';
import { MAX_JSON_DEPTH } from '@fin/core/errors';
import type { Store } from '@fin/server-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cart, harness } from './support/harness.js';

const validCart = cart();

/** Bodies: arbitrary JSON, the valid cart with random fields replaced, broken text, odd encodings. */
const body = fc.oneof(
  fc.json().map((text) => text),
  fc.string(),
  fc
    .record({
      key: fc.constantFrom(...Object.keys(validCart), 'items', 'totals', '__proto__', 'constructor'),
      value: fc.jsonValue(),
    })
    .map(({ key, value }) => JSON.stringify({ ...validCart, [key]: value })),
  fc
    .record({ path: fc.constantFrom('unitPrice', 'totalPrice', 'quantity'), value: fc.jsonValue() })
    .map(({ path, value }) =>
      JSON.stringify({ ...validCart, items: [{ ...validCart.items[0], [path]: value }] }),
    ),
  // Text no database can hold (NUL, unpaired surrogates) in any string field, JSON-escaped as a POS would send it.
  fc
    .record({
      key: fc.constantFrom('clientName', 'sellerName', 'sellerId', 'planId', 'storeId', 'clientPhoneNumber'),
      value: fc.constantFrom('\u0000', 'a\u0000b', '\uD800', 'x\uDFFFy', '\uDBFF\u0000'),
    })
    .map(({ key, value }) => JSON.stringify({ ...validCart, [key]: value })),
  // Raw bytes, invalid UTF-8 included.
  fc.uint8Array({ maxLength: 200 }),
);

const headerValue = fc.oneof(
  fc.constant(undefined),
  fc.uuid({ version: 4 }),
  fc.string({ maxLength: 60 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
);

export function describeMalformedInput(name: string, makeStore: () => Store | Promise<Store>): void {
  describe(`malformed input on ${name}`, () => {
    it('never answers 500 and always answers a valid envelope (authorize, confirm, cancel)', async () => {
      const h = harness({ store: await makeStore(), limits: { writesPerMinute: 1_000_000 } });
      const token = await h.token();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            '/v1/sales/authorize',
            '/v1/sales/auth_x/confirm',
            '/v1/sales/%E0%A4%A/cancel',
            '/v1/sales/a/cancel',
          ),
          body,
          fc.record({
            requestId: headerValue,
            correlationId: headerValue,
            idempotencyKey: headerValue,
            contentType: fc.constantFrom(
              'application/json',
              'text/plain',
              'application/json; charset=utf-8',
              '',
            ),
            authorization: fc.oneof(
              fc.constant(`Bearer ${token}`),
              fc.constant(undefined),
              fc.string({ maxLength: 30 }),
            ),
          }),
          async (path, text, headers) => {
            const init: Record<string, string> = {};
            const set = (name: string, value: string | undefined) => {
              if (value !== undefined && /^[\x20-\x7e]*$/.test(value)) init[name] = value;
            };
            set('x-request-id', headers.requestId);
            set('x-correlation-id', headers.correlationId);
            set('idempotency-key', headers.idempotencyKey);
            set('content-type', headers.contentType);
            set('authorization', headers.authorization);
            const response = await h.service.fetch(
              new Request(`http://fin.test${path}`, { method: 'POST', headers: init, body: text }),
            );
            expect(response.status).toBeLessThan(500);
            const parsed = schemas.envelope.safeParse(await response.json());
            expect(parsed.success).toBe(true);
          },
        ),
        { numRuns: 300 },
      );
    });

    it('the token endpoint never answers 500 either, and its errors keep the RFC 6749 shape', async () => {
      const h = harness({
        store: await makeStore(),
        limits: { tokensPerMinute: 1_000_000, tokenFailuresPerMinute: 1_000_000 },
      });
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom('grant_type', 'client_id', 'client_secret', 'scope', 'x'),
            fc.string(),
            {
              maxKeys: 5,
            },
          ),
          fc.constantFrom('application/x-www-form-urlencoded', 'application/json', ''),
          fc.oneof(fc.constant(undefined), fc.uuid({ version: 4 }), fc.constant('nope')),
          async (form, contentType, requestId) => {
            const headers: Record<string, string> = {};
            if (contentType) headers['content-type'] = contentType;
            if (requestId) headers['x-request-id'] = requestId;
            const response = await h.service.fetch(
              new Request('http://fin.test/v1/oauth/token', {
                method: 'POST',
                headers,
                body: new URLSearchParams(form).toString(),
              }),
            );
            expect(response.status).toBeLessThan(500);
            const json = await response.json();
            const schema = response.status === 200 ? schemas.tokenResponse : schemas.tokenErrorResponse;
            expect(schema.safeParse(json).success).toBe(true);
          },
        ),
        { numRuns: 200 },
      );
    });

    it('deeply nested JSON is refused cleanly (SF-2: 400 naming the depth limit, before any recursion)', async () => {
      const h = harness({ store: await makeStore() });
      const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
      const answer = await h.authorize(deep, { idempotencyKey: randomUUID() });
      expect(answer.status).toBe(400);
      expect(JSON.stringify(answer.body.error)).toContain(String(MAX_JSON_DEPTH));
    });
  });
}
