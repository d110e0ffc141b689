// What every framework adapter test proves over its real server: a whole sale, the probes, the host's own JSON route, the peer address.
import { AuthorizationClient, buildCart } from '@fin/authorization-client';
import { money } from '@fin/core';
import {
  createFinancingService,
  defaultLimits,
  type HealthPaths,
  sandboxCreditEngine,
} from '@fin/server-kit';
import { expect } from 'vitest';
import { CUSTOMER, manualClock } from '../support/harness.js';
import { simulatedPartner } from '../support/simulated-partner.js';

/**
 * The service a host embeds: one POS vendor on the simulated partner's stores, probes on unless told, the
 * vendor bound to a TLS client certificate when `certificateSha256` is given (mutual TLS, docs/mtls.md).
 */
export function embeddedService(
  healthPaths: HealthPaths | null = { live: '/healthz', ready: '/readyz' },
  certificateSha256?: string,
) {
  const clock = manualClock(new Date());
  const { sim: partner, storeId, devices, posClient } = simulatedPartner(clock);
  const service = createFinancingService({
    clients: [
      {
        clientId: 'pos-vendor',
        clientSecret: 's3cret',
        scopes: ['sales:authorize'],
        storeIds: [storeId],
        saleSearch: posClient().sales,
        ...(certificateSha256 ? { certificate: { sha256: certificateSha256 } } : {}),
      },
    ],
    credit: sandboxCreditEngine(),
    clock,
    ...(healthPaths ? { healthPaths } : {}),
  });
  return { service, partner, storeId, devices };
}

/** A one-phone cart of the customer at the simulated partner's store. */
export const phoneCart = (storeId: string, imei: string, cents: number) =>
  buildCart({
    client: { name: 'Maria Silva', taxId: CUSTOMER, phoneNumber: '11987654321' },
    seller: { id: 'seller-1', taxId: '11144477735', name: 'João Souza' },
    storeId,
    planId: 'plan-1',
    imei,
    items: [
      { sku: 'SKU-1', productType: 'SMARTPHONE', name: 'Phone', quantity: 1, unitPrice: money.brl(cents) },
    ],
  });

/**
 * authorize, confirm and cancel (EXCHANGE, verified by the partner's sale search) of the first device with
 * AuthorizationClient (through `fetch` when given: a client certificate); the client is returned for what
 * a test does next.
 */
export async function wholeSale(
  base: string,
  embedded: ReturnType<typeof embeddedService>,
  fetch?: typeof globalThis.fetch,
): Promise<AuthorizationClient> {
  const { partner, storeId, devices } = embedded;
  const imei = devices[0]!;
  const client = new AuthorizationClient({
    baseUrl: base,
    clientId: 'pos-vendor',
    clientSecret: 's3cret',
    maxRetries: 0,
    ...(fetch ? { fetch } : {}),
  });
  const sale = client.journey();
  const authorized = await sale.authorize(phoneCart(storeId, imei, 320_000));
  if (!authorized.authorized) throw new Error('expected an authorization');
  const invoice = partner.sales.register({ imei, taxId: CUSTOMER, storeId, status: 'ACTIVE' });
  const confirmed = await sale.confirm(authorized.authorizationId, {
    saleNumber: invoice.saleNumber,
    invoiceNumber: invoice.invoiceNumber!,
    nfeAccessKey: invoice.nfeAccessKey!,
    invoicedAt: invoice.saleDate,
  });
  expect(confirmed).toMatchObject({ status: 'CONFIRMED', contractId: expect.any(String) });
  expect(money.sum(confirmed.installments.map((i) => i.amount))).toEqual(money.brl(320_000));
  partner.sales.setStatus({ saleNumber: invoice.saleNumber }, 'CANCELLED');
  const cancelled = await sale.cancel(authorized.authorizationId, { reason: 'EXCHANGE' });
  expect(cancelled).toMatchObject({
    status: 'CANCELLED',
    verification: 'VERIFIED',
    financingCancelled: true,
  });
  return client;
}

/** `/healthz` and `/readyz` answered by the service (bodies of probes.ts), not the framework's 404. */
export async function probesAnswer(base: string): Promise<void> {
  const live = await fetch(`${base}/healthz`);
  expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toMatchObject({ status: 'ready', checks: { accepting: true, store: 'up' } });
}

/** The host's own JSON route (`POST /host/echo` answering `{ echoed: body }`) still parses JSON itself. */
export async function hostJsonRouteWorks(base: string): Promise<void> {
  const answer = await fetch(`${base}/host/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ hello: 'world', n: 1 }),
  });
  expect([answer.status, await answer.json()]).toEqual([200, { echoed: { hello: 'world', n: 1 } }]);
}

const wrongSecret = (base: string, from: string, clientId: string) =>
  fetch(`${base}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: 'wrong',
    }),
  }).then((response) => response.status);

/**
 * S-25 through the framework's own peer address: the host trusts its proxy, so the framework's request
 * names the forwarded address; one address spends its budget (429) while another still gets its 401. Half
 * the failures name unknown ids and half a wrong secret of the registered client, so neither of those
 * budgets (HP-5) runs out before the address's does.
 */
export async function tokenFailuresCountPerFrameworkPeer(base: string): Promise<void> {
  const budget = defaultLimits.tokenFailuresPerSourcePerMinute;
  const statuses: number[] = [];
  for (let i = 0; i <= budget; i++)
    statuses.push(await wrongSecret(base, '198.51.100.7', i % 2 === 0 ? `guess-${i}` : 'pos-vendor'));
  expect(statuses.slice(0, budget)).toEqual(Array(budget).fill(401));
  expect(statuses[budget]).toBe(429);
  expect(await wrongSecret(base, '203.0.113.9', 'pos-vendor')).toBe(401);
}
