// Issue 28 §2-§3: per-call headers, `.withResponse()` on results and errors, `on('request' | 'response')` hooks.
import {
  AuthorizationClient,
  type CartInput,
  FinApiError,
  FinInputError,
  type RequestEvent,
  type ResponseEvent,
} from '@fin/authorization-client';
import { magicValues } from '@fin/authorization-client/testing';
import { money } from '@fin/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { personName, phoneNumber, validCpf, validImei } from '../../../test/support/personal-data.js';
import { cart, cartInput, NFE_KEY, sandboxClientOptions, useSandbox } from './fixtures.js';

const server = useSandbox();

/** The headers of every request the sandbox receives, by path. */
function headersSeen() {
  const seen: Array<{ path: string; headers: Headers }> = [];
  server.events.on('request:start', ({ request }) => {
    seen.push({ path: new URL(request.url).pathname, headers: request.headers });
  });
  return seen;
}

/** Every event a client's listeners see, in order. */
function recordEvents(client: AuthorizationClient) {
  const events: Array<['request', RequestEvent] | ['response', ResponseEvent]> = [];
  client.on('request', (event) => events.push(['request', event]));
  client.on('response', (event) => events.push(['response', event]));
  return events;
}

const confirmInput = {
  saleNumber: 'V-1',
  invoiceNumber: 'NF-1',
  nfeAccessKey: NFE_KEY,
  invoicedAt: new Date(),
};

describe('per-call headers (issue 28 §2)', () => {
  it('travel on that call only, over defaultHeaders, on authorize, confirm and cancel', async () => {
    const seen = headersSeen();
    const client = new AuthorizationClient({
      ...sandboxClientOptions,
      defaultHeaders: { 'X-Tenant': 'all' },
    });
    const approved = await client.authorize(cart(), { headers: { 'X-Tenant': 'loja-42', 'X-Audit': 'a1' } });
    if (!approved.authorized) throw new Error('the sandbox approves magicValues.cpf.approved');
    await client.confirm(approved.authorizationId, confirmInput, { headers: { 'X-Audit': 'c1' } });
    const second = await client.authorize(cart({ imei: '356938035643809' }));
    if (!second.authorized) throw new Error('approved');
    await client.cancel(
      second.authorizationId,
      { reason: 'CUSTOMER_REQUEST' },
      { headers: { 'x-audit': 'k1' } },
    );
    const audit = seen.map(({ path, headers }) => [path, headers.get('x-audit'), headers.get('x-tenant')]);
    expect(audit).toEqual([
      ['/v1/oauth/token', null, 'all'],
      ['/v1/sales/authorize', 'a1', 'loja-42'],
      [`/v1/sales/${approved.authorizationId}/confirm`, 'c1', 'all'],
      ['/v1/sales/authorize', null, 'all'],
      [`/v1/sales/${second.authorizationId}/cancel`, 'k1', 'all'],
    ]);
  });

  it.each(['Authorization', 'X-Request-Id', 'Idempotency-Key', 'x-correlation-id', 'User-Agent'])(
    'naming %s is refused before sending, exactly as defaultHeaders refuses it',
    async (name) => {
      const seen = headersSeen();
      const client = new AuthorizationClient(sandboxClientOptions);
      const error = await client.authorize(cart(), { headers: { [name]: 'mine' } }).catch((e) => e);
      expect(error).toBeInstanceOf(FinInputError);
      expect((error as FinInputError).details).toEqual([
        { field: `headers.${name}`, issue: expect.any(String) },
      ]);
      expect(seen).toEqual([]);
    },
  );
});

describe('.withResponse(): the fetch Response beside the data (issue 28 §2)', () => {
  it('gives { data, response } with the answer’s status and headers; awaiting alone still gives the data', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const { data, response } = await client.authorize(cart()).withResponse();
    expect(data.authorized).toBe(true);
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe(data.lastResponse.requestId);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(data.lastResponse.response).toBe(response);
    expect(Object.keys(data.lastResponse)).not.toContain('response');
  });

  it('an error answer rejects with the FinApiError, which carries the same kind of Response (not in its JSON)', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const error = await client
      .authorize(cart({ imei: magicValues.imei.alreadyFinanced }))
      .withResponse()
      .catch((e) => e);
    expect(error).toBeInstanceOf(FinApiError);
    expect(error.response).toBeInstanceOf(Response);
    expect(error.response.status).toBe(error.status);
    expect(error.response.headers.get('x-request-id')).toBe(error.requestId);
    expect(JSON.stringify(error)).not.toContain('response');
  });

  it('input refused before sending has no response', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const error = await client
      .confirm('', confirmInput)
      .withResponse()
      .catch((e) => e);
    expect(error).toBeInstanceOf(FinInputError);
    expect(error.response).toBeUndefined();
  });
});

describe('client.on / off: request hooks (issue 28 §3)', () => {
  it('tell of every attempt: method, route template, ids, attempt, status, elapsed ms, in order', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const events = recordEvents(client);
    const journey = client.journey();
    const approved = await journey.authorize(cart());
    if (!approved.authorized) throw new Error('approved');
    await journey.confirm(approved.authorizationId, confirmInput);
    expect(events.map(([name, event]) => [name, event.method, event.route, event.attempt])).toEqual([
      ['request', 'POST', '/v1/oauth/token', 1],
      ['response', 'POST', '/v1/oauth/token', 1],
      ['request', 'POST', '/v1/sales/authorize', 1],
      ['response', 'POST', '/v1/sales/authorize', 1],
      ['request', 'POST', '/v1/sales/{id}/confirm', 1],
      ['response', 'POST', '/v1/sales/{id}/confirm', 1],
    ]);
    const [, confirmed] = events[5] as ['response', ResponseEvent];
    expect(confirmed).toEqual({
      method: 'POST',
      route: '/v1/sales/{id}/confirm',
      rate: 'write',
      requestId: expect.any(String),
      correlationId: journey.correlationId,
      attempt: 1,
      status: 200,
      elapsedMs: expect.any(Number),
      error: undefined,
    });
    expect(events[2]?.[1].requestId).toBe(approved.lastResponse.requestId);
    expect(events[3]?.[1]).toMatchObject({ status: 200, correlationId: journey.correlationId });
  });

  it('a retried call shows each attempt with its own request id and status', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const events = recordEvents(client);
    const result = await client.authorize(cart({ storeId: magicValues.faultStoreIds.unavailableOnce }));
    const answers = events.filter(([name, event]) => name === 'response' && event.rate === 'write');
    expect(answers.map(([, event]) => [event.attempt, (event as ResponseEvent).status])).toEqual([
      [1, 503],
      [2, 200],
    ]);
    expect(answers.map(([, event]) => event.requestId)).toEqual(result.lastResponse.requestIds);
  });

  it('a listener that throws (or rejects) never breaks the call, and is logged', async () => {
    const warnings: unknown[] = [];
    const client = new AuthorizationClient({
      ...sandboxClientOptions,
      logger: { warn: (e) => warnings.push(e) },
    });
    client.on('request', () => {
      throw new Error('listener bug');
    });
    client.on('response', async () => {
      throw new Error('async listener bug');
    });
    const result = await client.authorize(cart());
    expect(result.authorized).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toContainEqual(
      expect.objectContaining({ event: 'http.listener_failed', listener: 'request' }),
    );
    expect(warnings).toContainEqual(
      expect.objectContaining({ event: 'http.listener_failed', listener: 'response' }),
    );
  });

  it('off removes a listener; an unknown event name is refused', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const seen: string[] = [];
    const listener = (event: RequestEvent) => seen.push(event.route);
    client.on('request', listener).off('request', listener);
    await client.authorize(cart());
    expect(seen).toEqual([]);
    expect(() => client.on('error' as 'request', listener)).toThrow(TypeError);
  });
});

describe('what a listener sees holds no personal data (issue 28 §3, property)', () => {
  it('over random carts: never the CPFs, the IMEI, a name, a phone, the secret, the token or the body', async () => {
    const client = new AuthorizationClient(sandboxClientOptions);
    const seen: string[] = [];
    client.on('request', (event) => seen.push(JSON.stringify(event)));
    client.on('response', (event) => seen.push(JSON.stringify(event)));
    const randomCart = fc.record({
      cpf: validCpf,
      sellerCpf: validCpf,
      imei: validImei,
      name: personName,
      phone: phoneNumber,
      cents: fc.integer({ min: 1, max: 500_000 }),
    });
    await fc.assert(
      fc.asyncProperty(randomCart, async (input) => {
        seen.length = 0;
        const change: Partial<CartInput> = {
          client: { name: input.name, taxId: input.cpf, phoneNumber: input.phone },
          seller: { id: 'seller-7', taxId: input.sellerCpf, name: input.name },
          imei: input.imei,
        };
        const base = cartInput(change);
        const items = base.items.map((item) => ({ ...item, unitPrice: money.brl(input.cents) }));
        // Approved, declined or refused by the sandbox: whatever the answer, the events are checked.
        await client.authorize(cart({ ...change, items })).catch(() => undefined);
        expect(seen.length).toBeGreaterThanOrEqual(2);
        const text = seen.join('\n');
        for (const secret of [
          input.cpf,
          input.sellerCpf,
          input.imei,
          input.phone,
          input.name,
          magicValues.credentials.clientSecret,
          'Bearer',
          '"items"',
        ]) {
          expect(text).not.toContain(secret);
        }
      }),
      { numRuns: 25 },
    );
  });
});
