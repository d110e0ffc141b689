// Issue 13 §2a: Prism in proxy mode validates every request and answer of full sale journeys against the Sales Authorization document.
import { AuthorizationClient, buildCart, isFinApiError, newIdempotencyKey } from '@fin/authorization-client';
import { magicValues } from '@fin/authorization-client/testing';
import { money } from '@fin/core';
import { confirmationFromSale } from '@fin/server-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RunningFinancingService,
  startFinancingService,
} from '../../examples/financing-service/src/index.js';
import { type PartnerPosServer, startPartnerPos } from '../../examples/partner-pos/src/index.js';
import {
  type PrismServer,
  recordingFetch,
  requestViolations,
  responseViolations,
  startPrism,
} from './prism.js';
import { documents } from './tools.js';

let partner: PartnerPosServer;
let financing: RunningFinancingService;
let prism: PrismServer;
let fin: AuthorizationClient;
let storeId: string;
let devices: string[];
/** Calls that keep the contract: neither their requests nor the answers may violate it. */
const valid = recordingFetch();
/** Deliberately wrong requests (for the 4xx): Prism flags the request; the answer must still keep the contract. */
const wrong = recordingFetch();

beforeAll(async () => {
  partner = await startPartnerPos({ size: { stores: 1, productsPerStore: 40, employees: 3 } });
  financing = await startFinancingService({
    partnerPosUrl: partner.url,
    partnerPosCredentials: partner.sim.credentials,
    posVendor: magicValues.credentials,
    posClient: { rateLimit: false },
  });
  prism = await startPrism({
    mode: 'proxy',
    document: documents.salesAuthorization,
    upstream: financing.url,
  });
  fin = new AuthorizationClient({
    baseUrl: prism.url,
    ...magicValues.credentials,
    maxRetries: 0,
    fetch: valid.fetch,
  });
  storeId = financing.storeIds[0]!;
  devices = partner.sim.data.devices({ storeId, inStock: true }).map((device) => device.imei);
  if (devices.length < 7) throw new Error(`the partner holds ${devices.length} devices in stock, 7 needed`);
});
afterAll(async () => {
  await prism?.close();
  await financing?.close();
  await partner?.close();
});

/** A cart with its totals computed (R-02 by construction). */
const order = (taxId: string, device: string, cents = 180_000) =>
  buildCart({
    client: { name: 'Cliente', taxId, phoneNumber: '11987654321' },
    seller: { id: 'SEL-1', taxId: '11144477735', name: 'Vendedor' },
    storeId,
    planId: 'PLAN-PRE',
    imei: device,
    items: [
      { sku: 'SM-1', productType: 'SMARTPHONE', name: 'Phone', quantity: 1, unitPrice: money.brl(cents) },
    ],
  });

const invoiceAtPartner = (taxId: string, device: string) =>
  confirmationFromSale(partner.sim.sales.register({ imei: device, taxId, storeId, status: 'ACTIVE' }))!;

/** The code of the FinApiError a call throws. */
const codeOf = (call: Promise<unknown>) =>
  call.then(
    () => 'no error',
    (error: unknown) => (isFinApiError(error) ? `${error.status} ${error.code}` : String(error)),
  );

async function token(): Promise<string> {
  const response = await valid.fetch(`${prism.url}/v1/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: magicValues.credentials.clientId,
      client_secret: magicValues.credentials.clientSecret,
    }),
  });
  return `Bearer ${((await response.json()) as { access_token: string }).access_token}`;
}

/** A raw write POST with every header the document asks for, unless `headers` takes some away. */
const post = (path: string, body: string, headers: Record<string, string | undefined>, recorder = valid) =>
  recorder.fetch(`${prism.url}${path}`, {
    method: 'POST',
    headers: Object.fromEntries(
      Object.entries({
        'content-type': 'application/json',
        'x-request-id': crypto.randomUUID(),
        'x-correlation-id': crypto.randomUUID(),
        'idempotency-key': newIdempotencyKey(),
        ...headers,
      }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    body,
  });

describe('Prism proxy in front of the financing service (docs/openapi/sales-authorization.json)', () => {
  it('journeys through @fin/authorization-client: approved then confirmed, declined, approved then cancelled, each read back', async () => {
    const sale = fin.journey();
    const approved = await sale.authorize(order('12345678909', devices[0]!));
    if (!approved.authorized) throw new Error('expected an approval');
    const contract = await sale.confirm(
      approved.authorizationId,
      invoiceAtPartner('12345678909', devices[0]!),
    );
    expect(contract.status).toBe('CONFIRMED');
    expect(await fin.retrieve(approved.authorizationId)).toMatchObject({
      status: 'CONFIRMED',
      contractId: contract.contractId,
    });

    const declined = await fin.authorize(order(magicValues.cpf.declined, devices[1]!));
    expect(declined.authorized).toBe(false);

    const other = await fin.authorize(order('98765432100', devices[2]!));
    if (!other.authorized) throw new Error('expected an approval');
    const cancelled = await fin.cancel(other.authorizationId, { reason: 'CUSTOMER_REQUEST' });
    expect(cancelled).toMatchObject({ authorizationId: other.authorizationId, reason: 'CUSTOMER_REQUEST' });
    expect(await fin.retrieve(other.authorizationId)).toMatchObject({
      status: cancelled.status,
      cancellation: { reason: 'CUSTOMER_REQUEST', verification: cancelled.verification },
    });

    expect(requestViolations(valid.exchanges)).toEqual([]);
    expect(responseViolations(valid.exchanges)).toEqual([]);
  });

  it('the token endpoint: form and HTTP Basic, and its refusals', async () => {
    const { clientId, clientSecret } = magicValues.credentials;
    const request = (init: RequestInit, recorder = valid) =>
      recorder.fetch(`${prism.url}/v1/oauth/token`, { method: 'POST', ...init });
    const grant = new URLSearchParams({ grant_type: 'client_credentials' });
    const basicAuth = { authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}` };
    const statuses = [
      (await request({ headers: basicAuth, body: grant })).status,
      (await request({ headers: { authorization: `Basic ${btoa(`${clientId}:wrong`)}` }, body: grant }))
        .status,
      (
        await request({
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: clientId,
            client_secret: 'wrong',
          }),
        })
      ).status,
      (
        await request({
          body: new URLSearchParams({
            grant_type: 'client_credentials',
            client_id: clientId,
            client_secret: clientSecret,
            scope: 'catalog:read',
          }),
        })
      ).status,
      (
        await request(
          {
            body: new URLSearchParams({
              grant_type: 'password',
              client_id: clientId,
              client_secret: clientSecret,
            }),
          },
          wrong,
        )
      ).status,
    ];
    expect(statuses).toEqual([200, 401, 401, 400, 400]);
    expect(requestViolations(valid.exchanges)).toEqual([]);
    expect(responseViolations([...valid.exchanges, ...wrong.exchanges])).toEqual([]);
  });

  it('409, and the 4xx of the catalog on authorize, confirm and cancel, each answer as documented', async () => {
    const bearer = await token();
    const cart = JSON.stringify(order('52998224725', devices[5]!));
    const mismatch = order('52998224725', devices[5]!);
    mismatch.totals.grandTotal = money.brl(mismatch.totals.grandTotal.amount + 1);
    const key = newIdempotencyKey();
    const first = await fin.authorize(order('23456789092', devices[3]!), { idempotencyKey: key });
    expect(first.authorized).toBe(true);
    const statuses = {
      conflict: await codeOf(fin.authorize(order('23456789092', devices[4]!), { idempotencyKey: key })),
      imeiFinanced: await codeOf(fin.authorize(order('52998224725', devices[3]!))),
      totalMismatch: (await post('/v1/sales/authorize', JSON.stringify(mismatch), { authorization: bearer }))
        .status,
      storeNotFound: await codeOf(
        fin.authorize({ ...order('52998224725', devices[5]!), storeId: 'NO-SUCH-STORE' }),
      ),
      invalidCpf: (
        await post(
          '/v1/sales/authorize',
          cart.replace('52998224725', '529982247'),
          { authorization: bearer },
          wrong,
        )
      ).status,
      invalidToken: (await post('/v1/sales/authorize', cart, { authorization: 'Bearer not-a-token' })).status,
      missingToken: (await post('/v1/sales/authorize', cart, {}, wrong)).status,
      noRequestIds: (
        await post('/v1/sales/authorize', cart, { authorization: bearer, 'x-request-id': undefined }, wrong)
      ).status,
      noKey: (
        await post(
          '/v1/sales/authorize',
          cart,
          { authorization: bearer, 'idempotency-key': undefined },
          wrong,
        )
      ).status,
      notJson: (
        await post(
          '/v1/sales/authorize',
          cart,
          { authorization: bearer, 'content-type': 'text/plain' },
          wrong,
        )
      ).status,
      tooLarge: (
        await post(
          '/v1/sales/authorize',
          cart.replace('"Cliente"', JSON.stringify('x'.repeat(70_000))),
          { authorization: bearer },
          wrong,
        )
      ).status,
      confirmUnknown: await codeOf(fin.confirm('AUT-unknown', invoiceAtPartner('52998224725', devices[6]!))),
      cancelUnknown: await codeOf(fin.cancel('AUT-unknown', { reason: 'CUSTOMER_REQUEST' })),
    };
    expect(statuses).toMatchObject({
      conflict: '409 idempotency_key_conflict',
      imeiFinanced: expect.stringMatching(/^4\d\d imei_already_financed$/),
      storeNotFound: '404 store_not_found',
      totalMismatch: 422,
      invalidCpf: 422,
      invalidToken: 401,
      missingToken: 401,
      noRequestIds: 400,
      noKey: 400,
      notJson: 415,
      tooLarge: 413,
      confirmUnknown: '404 authorization_not_found',
      cancelUnknown: '404 authorization_not_found',
    });
    expect(requestViolations(valid.exchanges)).toEqual([]);
    expect(responseViolations([...valid.exchanges, ...wrong.exchanges])).toEqual([]);
  });

  it('429 with Retry-After once failed token authentications spend their budget', async () => {
    let limited: Response | undefined;
    for (let sent = 0; sent < 40 && !limited; sent++) {
      const response = await valid.fetch(`${prism.url}/v1/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: 'guessing-client',
          client_secret: 'guess',
        }),
      });
      if (response.status === 429) limited = response;
    }
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(responseViolations(valid.exchanges)).toEqual([]);
  });

  afterAll(() => {
    const all = [...valid.exchanges, ...wrong.exchanges];
    process.stdout.write(
      `Prism proxy (financing service): ${all.length} exchanges, ${responseViolations(all).length} answer violations\n`,
    );
  });
});
