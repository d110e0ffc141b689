// Issue 16 §3-§4: spans and metrics through the OpenTelemetry SDK's in-memory exporters, client and server over a real HTTP hop.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationClient } from '@fin/authorization-client';
import { FinApiError } from '@fin/core';
import { PosClient } from '@fin/pos-client';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { createFinancingService, memoryStore, sandboxCreditEngine, toNodeHandler } from '@fin/server-kit';
import { cartFixture, deviceImei } from '@fin/server-kit/testing';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guardSecrets } from '../reliability/support/secret-guard.js';
import { installOtelSdk, type OtelSdk, type Point } from './support/otel-sdk.js';

const guard = guardSecrets();
const CUSTOMER = '52998224725';
/** The sandbox engine declines this CPF with INSUFFICIENT_CREDIT_LIMIT. */
const DECLINED_CUSTOMER = '00000000272';
const CLIENT_ID = 'pos-vendor';
const CLIENT_SECRET = 'telemetry-secret-1';
const STORE = 'store-1';
const [IMEI_A, IMEI_B] = [deviceImei(1), deviceImei(2)];
guard.add('cpf', CUSTOMER, DECLINED_CUSTOMER);
guard.add('imei', IMEI_A, IMEI_B);
guard.add('client secret', CLIENT_SECRET);

let sdk: OtelSdk;
let server: Server | undefined;
beforeAll(() => {
  sdk = installOtelSdk();
  guard.watch('spans and metrics', () => sdk.text());
});
afterAll(() => sdk.shutdown());
afterEach(async () => {
  const open = server;
  server = undefined;
  if (open) await new Promise((resolve) => open.close(resolve));
});

/** A service on a clock the test moves, behind node:http on loopback, and a client to it. */
async function start(options: { writesPerMinute?: number; fetch?: typeof fetch } = {}) {
  let now = Date.parse('2026-03-02T15:00:00.000Z');
  const clock = {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
  const store = memoryStore();
  const service = createFinancingService({
    clients: [
      { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, scopes: ['sales:authorize'], storeIds: [STORE] },
    ],
    credit: sandboxCreditEngine(),
    store,
    clock,
    limits: options.writesPerMinute ? { writesPerMinute: options.writesPerMinute } : {},
  });
  server = createServer(toNodeHandler(service));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const client = new AuthorizationClient({
    baseUrl: `http://127.0.0.1:${port}`,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    maxRetries: options.fetch ? 2 : 0,
    fetch: guard.sniffTokens(options.fetch ?? fetch),
  });
  return { service, store, clock, client, port };
}

const cart = (clientTaxId: string, imei: string, storeId = STORE) =>
  cartFixture({ clientTaxId, imei, storeId, price: 250_000 });

const named = (kind: SpanKind, name: string) => (span: ReadableSpan) =>
  span.kind === kind && span.name === name;
const only = (spans: ReadableSpan[], test: (span: ReadableSpan) => boolean) => {
  const found = spans.filter(test);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const points = (collected: Map<string, Point[]>, name: string, attributes: Record<string, unknown> = {}) =>
  (collected.get(name) ?? []).filter((point) =>
    Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
  );
const total = (found: Point[]) => found.reduce((sum, point) => sum + point.value, 0);

describe('OpenTelemetry traces (issue 16 §3)', () => {
  it('one trace from the client call to the store: client span -> (traceparent over HTTP) -> server span -> credit and store spans', async () => {
    const { client } = await start();
    const sale = client.journey();
    const result = await sale.authorize(cart(CUSTOMER, IMEI_A));
    expect(result.authorized).toBe(true);

    const spans = sdk.spans();
    const call = only(spans, named(SpanKind.CLIENT, 'POST /v1/sales/authorize'));
    const served = only(spans, named(SpanKind.SERVER, 'POST /v1/sales/authorize'));
    expect(served.spanContext().traceId).toBe(call.spanContext().traceId);
    expect(parentOf(served)).toBe(call.spanContext().spanId);

    // The client's token call is a child of the call that needed it, and its server span a child of that.
    const tokenCall = only(spans, named(SpanKind.CLIENT, 'POST /v1/oauth/token'));
    expect(parentOf(tokenCall)).toBe(call.spanContext().spanId);
    const tokenServed = only(spans, named(SpanKind.SERVER, 'POST /v1/oauth/token'));
    expect(parentOf(tokenServed)).toBe(tokenCall.spanContext().spanId);

    const credit = only(spans, (span) => span.name === 'credit.analyze');
    expect(parentOf(credit)).toBe(served.spanContext().spanId);
    expect(credit.attributes).toMatchObject({ 'fin.credit.decision': 'approved' });
    const storeSpans = spans.filter(
      (span) => span.name.startsWith('store.') && span.spanContext().traceId === call.spanContext().traceId,
    );
    expect(storeSpans.map((span) => span.name)).toEqual(
      // The authorize's claim answers its first reads (memoryStore, like PostgreSQL), then the write.
      expect.arrayContaining(['store.claimWrite', 'store.createAuthorization']),
    );
    const requests = [served.spanContext().spanId, tokenServed.spanContext().spanId];
    for (const span of storeSpans) expect(requests).toContain(parentOf(span));
    expect(parentOf(only(storeSpans, (span) => span.name === 'store.createAuthorization'))).toBe(
      served.spanContext().spanId,
    );

    // OpenTelemetry HTTP semantic conventions, and the ids of the call.
    const { port } = new URL(String(call.attributes['url.full'])) as URL & { port: string };
    expect(call.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(port),
      'url.full': `http://127.0.0.1:${port}/v1/sales/authorize`,
      'http.response.status_code': 200,
      'http.request.header.x-correlation-id': [sale.correlationId],
      'http.request.header.x-request-id': [result.lastResponse.requestId],
    });
    expect(served.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/sales/authorize',
      'url.path': '/v1/sales/authorize',
      'server.address': '127.0.0.1',
      'http.response.status_code': 200,
      'http.request.header.x-correlation-id': [sale.correlationId],
      'http.request.header.x-request-id': [result.lastResponse.requestId],
      'fin.outcome': 'authorized',
    });
    expect(call.events.map((event) => event.name)).toEqual(['http.attempt']);
  });

  it('a 429 and its retry show on the call span: both attempts, the wait, resend_count 1', async () => {
    let refusedOnce = false;
    // The first authorize is answered 429 before it reaches the service; the retry goes through.
    const flaky: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!refusedOnce && url.endsWith('/v1/sales/authorize')) {
        refusedOnce = true;
        const body = {
          success: false,
          message: 'Too many requests',
          timestamp: new Date().toISOString(),
          data: null,
          error: { code: 'rate_limit_exceeded', legacyCode: 'RL0001', message: 'Too many requests' },
        };
        return new Response(JSON.stringify(body), {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '0' },
        });
      }
      return fetch(input, init);
    };
    const { client } = await start({ fetch: flaky });
    const result = await client.authorize(cart(CUSTOMER, IMEI_B));
    expect(result.authorized).toBe(true);

    const calls = sdk.spans().filter(named(SpanKind.CLIENT, 'POST /v1/sales/authorize'));
    const call = calls.at(-1)!;
    expect(call.attributes).toMatchObject({
      'http.request.resend_count': 1,
      'http.response.status_code': 200,
    });
    expect(call.events.map((event) => [event.name, event.attributes?.['http.response.status_code']])).toEqual(
      [
        ['http.attempt', 429],
        ['http.retry', undefined],
        ['http.attempt', 200],
      ],
    );
    expect(call.events[1]!.attributes).toMatchObject({
      'error.type': 'rate_limit_exceeded',
      'fin.retry.after': true,
    });
    const served = sdk.spans().filter(named(SpanKind.SERVER, 'POST /v1/sales/authorize')).at(-1)!;
    expect(parentOf(served)).toBe(call.spanContext().spanId);
    const collected = await sdk.collect();
    expect(total(points(collected, 'fin.client.rate_limited', { 'fin.rate_class': 'write' }))).toBe(1);
  });

  it('a refused call marks the client span failed with its error code, the server span (a 4xx) not', async () => {
    const { client } = await start();
    const refused = await client
      .authorize(cart(CUSTOMER, IMEI_A, 'store-of-another'))
      .catch((error) => error);
    expect(refused).toBeInstanceOf(FinApiError);
    const call = sdk.spans().filter(named(SpanKind.CLIENT, 'POST /v1/sales/authorize')).at(-1)!;
    expect(call.attributes).toMatchObject({
      'error.type': refused.code,
      'http.response.status_code': refused.status,
    });
    expect(call.status.code).toBe(2);
    const served = sdk.spans().filter(named(SpanKind.SERVER, 'POST /v1/sales/authorize')).at(-1)!;
    expect(served.attributes['fin.outcome']).toBe(refused.code);
    expect(served.status.code).toBe(0);
  });
});

describe('OpenTelemetry traces of @fin/pos-client (issue 16 §3)', () => {
  it('a call whose query carries an IMEI is a span named by its route; neither url.full nor any attribute holds the query', async () => {
    const sim = createSimulatedPos({ seed: 3, size: { stores: 1, productsPerStore: 20, employees: 5 } });
    const device = sim.data.devices()[0]!;
    guard.add('imei', device.imei);
    guard.add('client secret', sim.credentials.clientSecret);
    const pos = new PosClient({
      baseUrl: 'http://partner-pos.test',
      ...sim.credentials,
      rateLimit: false,
      fetch: guard.sniffTokens(sim.fetch),
    });
    await pos.store(device.storeId).imei.validate(device.imei);
    const call = only(sdk.spans(), named(SpanKind.CLIENT, 'GET /v1/imei/validate'));
    expect(call.attributes).toMatchObject({
      'url.full': 'http://partner-pos.test/v1/imei/validate',
      'url.template': '/v1/imei/validate',
      'fin.rate_class': 'read',
      'http.response.status_code': 200,
    });
    // The guard's afterEach searches every span and metric for the IMEI.
  });
});

describe('OpenTelemetry metrics (issue 16 §4)', () => {
  it('requests by route and status, authorize outcomes, replays, 429s by class, and the workers lag read from the store', async () => {
    const { client, store, clock } = await start({ writesPerMinute: 5 });
    await store.saveCatalogSnapshot({
      partnerId: CLIENT_ID,
      snapshot: {},
      syncedAt: new Date(clock.now().getTime() - 2 * 3_600_000),
    });
    const before = await sdk.collect();
    const count = (collected: Map<string, Point[]>, name: string, attributes: Record<string, unknown>) =>
      total(points(collected, name, attributes)) - total(points(before, name, attributes));

    const authorized = await client.authorize(cart(CUSTOMER, IMEI_A));
    if (!authorized.authorized) throw new Error('expected an authorization');
    const declined = await client.authorize(cart(DECLINED_CUSTOMER, IMEI_B));
    expect(declined.authorized).toBe(false);
    await expect(client.authorize(cart(CUSTOMER, IMEI_B, 'store-of-another'))).rejects.toThrow(FinApiError);
    await client.authorize(cart(CUSTOMER, IMEI_A), { idempotencyKey: authorized.idempotencyKey });

    let collected = await sdk.collect();
    const authorize = { 'http.route': '/v1/sales/authorize' };
    expect(
      count(collected, 'http.server.request.duration', { ...authorize, 'http.response.status_code': 200 }),
    ).toBe(3);
    expect(count(collected, 'http.client.request.duration', { 'url.template': '/v1/sales/authorize' })).toBe(
      4,
    );
    expect(count(collected, 'fin.authorize.outcomes', { 'fin.outcome': 'authorized' })).toBe(1);
    expect(
      count(collected, 'fin.authorize.outcomes', {
        'fin.outcome': 'declined',
        'fin.decline_reason': 'INSUFFICIENT_CREDIT_LIMIT',
      }),
    ).toBe(1);
    expect(
      count(collected, 'fin.authorize.outcomes', {
        'fin.outcome': 'refused',
        'error.type': 'store_not_found',
      }),
    ).toBe(1);
    expect(count(collected, 'fin.idempotency.replays', authorize)).toBe(1);
    expect(points(collected, 'fin.worker.unconfirmed_authorizations')).toEqual([
      { attributes: {}, value: 1 },
    ]);
    expect(points(collected, 'fin.catalog.sync.age')).toEqual([
      { attributes: { 'fin.partner.id': CLIENT_ID }, value: 2 * 3600 },
    ]);

    // The cancel is the fifth write of the minute; the sixth is refused 429 (class `write`).
    await client.cancel(authorized.authorizationId, { reason: 'CUSTOMER_GAVE_UP' });
    await expect(
      client.cancel(authorized.authorizationId, { reason: 'CUSTOMER_GAVE_UP' }),
    ).rejects.toMatchObject({
      status: 429,
    });
    // No sale search is configured, so the notice waits for the verifier: a day later it is overdue.
    clock.advance(86_400_000);
    collected = await sdk.collect();
    expect(count(collected, 'fin.rate_limit.rejections', { 'fin.rate_class': 'write' })).toBe(1);
    expect(points(collected, 'fin.worker.unconfirmed_authorizations')).toEqual([
      { attributes: {}, value: 0 },
    ]);
    expect(points(collected, 'fin.worker.pending_cancellations')).toEqual([{ attributes: {}, value: 1 }]);
    expect(points(collected, 'fin.worker.oldest_pending_cancellation.age')).toEqual([
      { attributes: {}, value: 86_400 },
    ]);
  });
});
