// Issue 27 §2: @opentelemetry/api installed with nothing registered costs nothing: no span, metric or wrapper.
import { AuthorizationClient } from '@fin/authorization-client';
import { createInstrumentation } from '@fin/core/transport';
import { createFinancingService, memoryStore, sandboxCreditEngine } from '@fin/server-kit';
import { cartFixture, deviceImei } from '@fin/server-kit/testing';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { installOtelSdk, type OtelSdk } from './support/otel-sdk.js';

const CLIENT = { clientId: 'pos-quiet', clientSecret: 'quiet-secret-1' };
const STORE = 'store-1';
let sdk: OtelSdk | undefined;
afterEach(async () => {
  await sdk?.shutdown();
  sdk = undefined;
  propagation.disable();
});

/** A service and a client calling it in process, created now (their instruments are taken at creation). */
function journey() {
  const service = createFinancingService({
    clients: [{ ...CLIENT, scopes: ['sales:authorize'], storeIds: [STORE] }],
    credit: sandboxCreditEngine(),
    store: memoryStore(),
  });
  const client = new AuthorizationClient({
    baseUrl: 'http://fin.test',
    ...CLIENT,
    fetch: (input, init) => service.fetch(new Request(input, init)),
  });
  const authorize = async (imei: string) =>
    (
      await client.authorize(
        cartFixture({ clientTaxId: '52998224725', imei, storeId: STORE, price: 250_000 }),
      )
    ).authorized;
  return { authorize, close: () => service.close() };
}

describe('OpenTelemetry free when nothing records (issue 27 §2, PERF-1)', () => {
  it('a client and service created with the API present and nothing registered install no wrapper: an SDK registered later sees none of their work', async () => {
    const quiet = journey();
    sdk = installOtelSdk();
    expect(await quiet.authorize(deviceImei(1))).toBe(true);
    expect(sdk.spans()).toEqual([]);
    const points = await sdk.collect();
    expect(points.get('http.server.request.duration') ?? []).toEqual([]);
    expect(points.get('http.client.request.duration') ?? []).toEqual([]);
    await quiet.close();
  });

  it('created after the host registered its SDK, the same client and service trace and measure every call', async () => {
    sdk = installOtelSdk();
    const traced = journey();
    expect(await traced.authorize(deviceImei(2))).toBe(true);
    const names = sdk.spans().map((span) => span.name);
    expect(names.filter((name) => name === 'POST /v1/sales/authorize')).toHaveLength(2);
    const points = await sdk.collect();
    expect(points.get('http.server.request.duration')?.length).toBeGreaterThan(0);
    expect(points.get('http.client.request.duration')?.length).toBeGreaterThan(0);
    await traced.close();
  });

  it('a propagator alone counts as registered (a trace must still be passed on); nothing at all does not', () => {
    const scope = { name: '@fin/test', version: '0.0.0' };
    expect(createInstrumentation(scope).enabled).toBe(false);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    expect(createInstrumentation(scope).enabled).toBe(true);
  });
});
