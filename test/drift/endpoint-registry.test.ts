// Drift: the clients, the simulated POS, the sandbox, the server's routing and the OpenAPI documents agree with the endpoint registry.
import { AuthorizationClient } from '@fin/authorization-client';
import { authorizationHandlers, SANDBOX_BASE_URL } from '@fin/authorization-client/testing/msw';
import { endpoints, schemas } from '@fin/core';
import {
  buildPartnerPosOpenApi,
  buildSalesAuthorizationOpenApi,
  type OpenApiDocument,
} from '@fin/core/openapi';
import type { WithResponse, WriteResult } from '@fin/core/transport';
import { PosClient, type StoreScope } from '@fin/pos-client';
import { createSimulatedPos, posEndpoints } from '@fin/pos-client/testing';
import { createFinancingService, sandboxCreditEngine } from '@fin/server-kit';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { cart, NFE_KEY, sandboxClientOptions } from '../../packages/authorization-client/test/fixtures.js';

type Table = endpoints.EndpointTable;
type Fetch = (request: Request) => Promise<Response>;

const apis = [
  {
    name: 'Partner POS',
    table: endpoints.partnerPos as Table,
    document: buildPartnerPosOpenApi(),
    other: endpoints.salesAuthorization as Table,
  },
  {
    name: 'Sales Authorization',
    table: endpoints.salesAuthorization as Table,
    document: buildSalesAuthorizationOpenApi(),
    other: endpoints.partnerPos as Table,
  },
];

/** One request a consumer sent, as the wire carried it. */
interface Call {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType: string;
  body: string;
}

const callOf = async (request: Request): Promise<Call> => {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    contentType: request.headers.get('content-type') ?? '',
    body: request.method === 'GET' ? '' : await request.clone().text(),
  };
};

type Schema = endpoints.EndpointDefinition['response']['schema'];

const issuesOf = (name: string, schema: Schema, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${name}: ${issue.path.join('.')} ${issue.message}`);
};

/**
 * What `calls` disagree on with `table`: a call no entry declares, a query or body its entry's schema
 * refuses, a media type other than the entry's, and an entry never called.
 */
function callDrift(table: Table, calls: readonly Call[]): string[] {
  const match = endpoints.createEndpointMatcher(table);
  const called = new Set<string>();
  const issues: string[] = [];
  for (const call of calls) {
    const name = `${call.method} ${call.path}`;
    const found = match(call.method, call.path);
    if (!found.ok) {
      issues.push(`${name}: called, but no registry entry declares it`);
      continue;
    }
    called.add(found.operationId);
    const { query, body } = table[found.operationId]!;
    const undeclared = Object.keys(call.query).filter((key) => !query || !(key in query.shape));
    if (undeclared.length > 0) issues.push(`${name}: sends query ${undeclared.join(', ')}, undeclared`);
    if (query) issues.push(...issuesOf(`${name} query`, query, call.query));
    if (!body) {
      if (call.body !== '') issues.push(`${name}: sends a body its entry does not declare`);
    } else if (!call.contentType.startsWith(body.mediaType)) {
      issues.push(`${name}: sends ${call.contentType}, its entry declares ${body.mediaType}`);
    } else {
      const value =
        body.mediaType === 'application/json'
          ? JSON.parse(call.body)
          : Object.fromEntries(new URLSearchParams(call.body));
      issues.push(...issuesOf(`${name} body`, body.schema, value));
    }
  }
  for (const id of Object.keys(table))
    if (!called.has(id)) issues.push(`${id}: in the registry, never called`);
  return issues;
}

/** A concrete path of an entry: `{id}` filled with a value no store holds. */
const pathOf = (endpoint: endpoints.EndpointDefinition) =>
  endpoints.endpointPath(endpoint, {
    id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    reservationId: 'RSV-999999',
  });

/** The catalog code of an error answer: the envelope's `error.code`, or the token endpoint's `code`. */
const codeOf = async (response: Response): Promise<string | undefined> => {
  const body = (await response.json()) as { error?: { code?: string } | string | null; code?: string };
  return typeof body.error === 'string' ? body.code : (body.error?.code ?? undefined);
};

/**
 * What an HTTP consumer's routing disagrees on with `table`: an entry it does not route (404/405), an
 * error code its entry does not list, another method on an entry's path not refused with 405, and a
 * path of the other API (absent from `table`) not refused with 404.
 */
async function routingDrift(serve: Fetch, baseUrl: string, table: Table, other: Table): Promise<string[]> {
  const headers = { 'x-request-id': crypto.randomUUID(), 'x-correlation-id': crypto.randomUUID() };
  const send = (method: string, path: string) =>
    serve(
      new Request(`${baseUrl}${path}`, {
        method,
        headers: { ...headers, 'x-request-id': crypto.randomUUID() },
      }),
    );
  const issues: string[] = [];
  for (const [id, endpoint] of Object.entries(table)) {
    const path = pathOf(endpoint);
    const response = await send(endpoint.method, path);
    const code = response.status === 200 ? undefined : await codeOf(response);
    if (code === 'not_found' || code === 'method_not_allowed') issues.push(`${id}: not routed (${code})`);
    else if (code && !endpoints.endpointErrorCodes(endpoint).has(code as never)) {
      issues.push(`${id}: answered ${code}, which its entry does not list`);
    }
    const otherMethod = endpoint.method === 'GET' ? 'POST' : 'GET';
    if (!Object.values(table).some((e) => e.path === endpoint.path && e.method === otherMethod)) {
      const wrong = await send(otherMethod, path);
      if (wrong.status !== 405) issues.push(`${otherMethod} ${path}: answered ${wrong.status}, not 405`);
    }
  }
  const match = endpoints.createEndpointMatcher(table);
  for (const endpoint of Object.values(other)) {
    const path = pathOf(endpoint);
    if (match(endpoint.method, path).ok || match(endpoint.method === 'GET' ? 'POST' : 'GET', path).ok)
      continue;
    const response = await send(endpoint.method, path);
    if (response.status !== 404)
      issues.push(`${endpoint.method} ${path}: answered ${response.status}, not 404`);
  }
  return issues;
}

/** What a document disagrees on with `table`: operations, ids, schemas, scopes, idempotency, codes, limits. */
function documentDrift(table: Table, document: OpenApiDocument): string[] {
  const issues: string[] = [];
  const documented = new Set<string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const name = `${method.toUpperCase()} ${path}`;
      documented.add(name);
      const entry = table[operation.operationId];
      if (!entry || endpoints.endpointName(entry) !== name) {
        issues.push(`${name} (${operation.operationId}): documented, but no registry entry declares it`);
        continue;
      }
      const expected = {
        // The token endpoint: HTTP Basic or the form's credentials (`{}`), decision D-OA-11.
        security:
          entry.scopes === 'none' ? [{ clientSecretBasic: [] }, {}] : [{ systemToken: [...entry.scopes] }],
        idempotent: entry.rate === 'write',
        errorCodes: [...endpoints.endpointErrorCodes(entry)].sort(),
        perMinute: endpoints.perMinuteOf[entry.rate],
        body: entry.body?.mediaType,
        response: entry.response.envelope ? entry.response.name : entry.response.schema.meta()?.id,
      };
      const actual = {
        security: operation.security,
        idempotent: operation.parameters.some((p) => '$ref' in p && p.$ref.endsWith('/IdempotencyKey')),
        errorCodes: operation['x-error-codes'],
        perMinute: (operation['x-rate-limit'] as { perMinute: number }).perMinute,
        body: Object.keys(operation.requestBody?.content ?? {})[0],
        response: (
          operation.responses['200']?.content?.['application/json']?.schema as { $ref?: string } | undefined
        )?.$ref
          ?.split('/')
          .at(-1),
      };
      for (const key of Object.keys(expected) as (keyof typeof expected)[]) {
        if (JSON.stringify(actual[key]) !== JSON.stringify(expected[key])) {
          issues.push(
            `${name}: documents ${key} ${JSON.stringify(actual[key])}, the registry ${JSON.stringify(expected[key])}`,
          );
        }
      }
    }
  }
  for (const [id, entry] of Object.entries(table)) {
    if (!documented.has(endpoints.endpointName(entry))) issues.push(`${id}: in the registry, not documented`);
  }
  return issues;
}

/** A read the registry could gain: drift until a server stage, a client method and the documents have it. */
const historyRead = endpoints.defineEndpoint({
  ...endpoints.salesAuthorization.retrieveSale,
  path: '/v1/sales/{id}/history',
});

describe('the OpenAPI documents', () => {
  it.each(apis)(
    'the $name document holds exactly the registry entries, as the registry declares them',
    ({ table, document }) => {
      expect(documentDrift(table, document)).toEqual([]);
    },
  );

  it('an operation documented but missing from the registry is drift', () => {
    const { issueToken: _, ...withoutToken } = endpoints.partnerPos;
    expect(documentDrift(withoutToken, buildPartnerPosOpenApi())).toEqual([
      'POST /v1/oauth/token (issueToken): documented, but no registry entry declares it',
    ]);
  });
});

describe('the simulated partner POS', () => {
  const sim = createSimulatedPos({ rateLimit: false });

  it('names exactly the registry endpoints', () => {
    expect(posEndpoints).toEqual(Object.values(endpoints.partnerPos).map(endpoints.endpointName));
  });

  it('routes every Partner POS entry, answers only codes the entry lists, and nothing of the other API', async () => {
    expect(
      await routingDrift(sim.fetch, 'https://pos.test', endpoints.partnerPos, endpoints.salesAuthorization),
    ).toEqual([]);
  });
});

describe('@fin/pos-client against the simulated POS', () => {
  it('calls every Partner POS entry with its method, path, query and body, and parses its answers', async () => {
    const sim = createSimulatedPos({ rateLimit: false });
    const calls: Promise<Call>[] = [];
    const pos = new PosClient({
      baseUrl: 'https://pos.test',
      ...sim.credentials,
      rateLimit: false,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        calls.push(callOf(request.clone()));
        return sim.fetch(request);
      },
    });
    const seller = sim.data.sellers[0]!;
    const entry = sim.data.products(seller.storeId).find((product) => product.planIds.length > 0)!;
    const device = sim.data.devices({ storeId: seller.storeId })[0]!;
    const store = pos.store(seller.storeId);

    await pos.sellers.login({ cpf: seller.cpf, password: seller.password });
    await pos.employees.list().pages().next();
    await pos.stores.list().pages().next();
    await store.plans.list();
    await store.products.list({ planId: entry.planIds[0]! }).pages().next();
    await store.products.byBarcode(entry.barcode);
    await store.services.list({ sku: entry.product.sku });
    await store.stock.get(entry.product.sku);
    await store.imei.validate(device.imei);
    await pos.sales.search({ imei: device.imei });
    const hold = await store.stock.reserve({ imei: device.imei });
    if (hold.supported) {
      await store.stock.reservation(hold.reservation.reservationId);
      await store.stock.extend(hold.reservation.reservationId, { ttlSeconds: 1800 });
      await store.stock.release(hold.reservation.reservationId);
    }

    const recorded = await Promise.all(calls);
    expect(callDrift(endpoints.partnerPos, recorded)).toEqual([]);
    // A call the registry does not declare is drift: the same calls against a registry without plans.
    const { listPlans: _, ...withoutPlans } = endpoints.partnerPos;
    expect(callDrift(withoutPlans, recorded)).toContain(
      `GET /v1/plans: called, but no registry entry declares it`,
    );
  });
});

describe('the Sales Authorization API: server-kit and the sandbox', () => {
  const server = setupServer(...authorizationHandlers());
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('server-kit routes every Sales Authorization entry, answers only codes the entry lists, and nothing of the other API', async () => {
    const service = createFinancingService({
      clients: [
        { clientId: 'pos', clientSecret: 'secret', scopes: ['sales:authorize'], storeIds: ['store-001'] },
      ],
      credit: sandboxCreditEngine(),
    });
    expect(
      await routingDrift(
        service.fetch,
        'https://financing.test',
        endpoints.salesAuthorization,
        endpoints.partnerPos,
      ),
    ).toEqual([]);
    await service.close();
  });

  it('the sandbox handlers route the same entries', async () => {
    expect(
      await routingDrift(fetch, SANDBOX_BASE_URL, endpoints.salesAuthorization, endpoints.partnerPos),
    ).toEqual([]);
  });

  it('@fin/authorization-client calls every entry with its method, path and body, and parses its answers', async () => {
    const calls: Promise<Call>[] = [];
    const listener = ({ request }: { request: Request }) => {
      calls.push(callOf(request));
    };
    server.events.on('request:start', listener);
    const client = new AuthorizationClient(sandboxClientOptions);
    const authorized = await client.authorize(cart());
    if (!authorized.authorized) throw new Error('the sandbox approves magicValues.cpf.approved');
    await client.confirm(authorized.authorizationId, {
      saleNumber: 'V-1001',
      invoiceNumber: 'NF-555',
      nfeAccessKey: NFE_KEY,
      invoicedAt: new Date(),
    });
    await client.cancel(authorized.authorizationId, { reason: 'CUSTOMER_REQUEST' });
    await client.retrieve(authorized.authorizationId);
    server.events.removeListener('request:start', listener);

    const recorded = await Promise.all(calls);
    expect(callDrift(endpoints.salesAuthorization, recorded)).toEqual([]);
    const { confirmSale: _, ...withoutConfirm } = endpoints.salesAuthorization;
    expect(callDrift(withoutConfirm, recorded)).toContain(
      `POST /v1/sales/${encodeURIComponent(authorized.authorizationId)}/confirm: called, but no registry entry declares it`,
    );
    // A read in the registry that no client method calls, and that no document holds, is drift too.
    const withHistory = { ...endpoints.salesAuthorization, saleHistory: historyRead };
    expect(callDrift(withHistory, recorded)).toContain('saleHistory: in the registry, never called');
    expect(documentDrift(withHistory, buildSalesAuthorizationOpenApi())).toContain(
      'saleHistory: in the registry, not documented',
    );
  });
});

it("z.infer of an entry's response schema is the result type of the method that calls it", () => {
  type Data<E extends endpoints.EndpointDefinition> = endpoints.EndpointData<E>;
  const { salesAuthorization: sales, partnerPos: pos } = endpoints;
  // Plus the answer's metadata (issue 14): `lastResponse`, and a write's key and request ids.
  expectTypeOf<Awaited<ReturnType<AuthorizationClient['confirm']>>>().toEqualTypeOf<
    WriteResult<Data<typeof sales.confirmSale>>
  >();
  expectTypeOf<Awaited<ReturnType<AuthorizationClient['cancel']>>>().toEqualTypeOf<
    WriteResult<Data<typeof sales.cancelSale>>
  >();
  expectTypeOf<Awaited<ReturnType<AuthorizationClient['retrieve']>>>().toEqualTypeOf<
    WithResponse<Data<typeof sales.retrieveSale>>
  >();
  expectTypeOf<Awaited<ReturnType<StoreScope['stock']['get']>>>().toEqualTypeOf<
    WithResponse<Data<typeof pos.getStock>>
  >();
  expectTypeOf<Awaited<ReturnType<StoreScope['imei']['validate']>>>().toEqualTypeOf<
    WithResponse<Data<typeof pos.validateImei>>
  >();
  expect(sales.authorizeSale.body.schema).toBe(schemas.authorizeRequest);
  expect(pos.listPlans.response.schema).toBe(schemas.plansList);
});
