// The OpenAPI 3.1 documents of both APIs: valid, complete against spec sections 4, 5 and 7, and true to the zod schemas.
import { errorCatalog, isKnownErrorCode, schemas, WEBHOOK_EVENT_TYPES } from '@fin/core';
import {
  buildPartnerPosOpenApi,
  buildSalesAuthorizationOpenApi,
  type JsonSchema,
  type OAuth2SecurityScheme,
  type OpenApiDocument,
  type OpenIdConnectSecurityScheme,
} from '@fin/core/openapi';
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const partnerPos = buildPartnerPosOpenApi();
const salesAuthorization = buildSalesAuthorizationOpenApi();
const documents = { 'Partner POS': partnerPos, 'Sales Authorization': salesAuthorization };

// Spec section 4, the two endpoint tables, with the payload each 200 carries (`data` of the envelope).
const partnerPosEndpoints: [string, string, z.ZodType][] = [
  ['post', '/v1/oauth/token', schemas.tokenResponse],
  ['post', '/v1/sellers/session', schemas.sellerSessionResponse],
  ['get', '/v1/employees', schemas.employeesPage],
  ['get', '/v1/stores', schemas.storesPage],
  ['get', '/v1/plans', schemas.plansList],
  ['get', '/v1/products', schemas.productsPage],
  ['get', '/v1/products/barcode', schemas.productWithStock],
  ['get', '/v1/services', schemas.servicesList],
  ['get', '/v1/stock', schemas.stockLevel],
  ['get', '/v1/imei/validate', schemas.imeiValidation],
  ['post', '/v1/sales/search', schemas.saleSearchResult],
  // v1.1, optional per partner (issue 30).
  ['post', '/v1/stock/reservations', schemas.stockReservation],
  ['get', '/v1/stock/reservations/{reservationId}', schemas.stockReservation],
  ['post', '/v1/stock/reservations/{reservationId}/extend', schemas.stockReservation],
  ['post', '/v1/stock/reservations/{reservationId}/release', schemas.stockReservation],
];
const salesAuthorizationEndpoints: [string, string, z.ZodType][] = [
  ['post', '/v1/oauth/token', schemas.tokenResponse],
  ['post', '/v1/sales/authorize', schemas.authorizeResult],
  ['post', '/v1/sales/{id}/confirm', schemas.confirmResult],
  ['post', '/v1/sales/{id}/cancel', schemas.cancelResult],
  // A compatible addition under section 9.2 (DESIGN 22): the owner's read of an authorization.
  ['get', '/v1/sales/{id}', schemas.authorizationState],
];
const endpoints = { 'Partner POS': partnerPosEndpoints, 'Sales Authorization': salesAuthorizationEndpoints };

// The statuses spec section 4 lists per endpoint.
const specStatuses: Record<string, string[]> = {
  'post /v1/oauth/token': ['401', '429'],
  'post /v1/sellers/session': ['401', '422', '429'],
  'get /v1/plans': ['401', '404'],
  'get /v1/products': ['401', '404'],
  'get /v1/products/barcode': ['401', '404'],
  'get /v1/services': ['401', '404'],
  'get /v1/imei/validate': ['401', '422'],
  'post /v1/sales/search': ['401', '404', '422'],
};

type Operation = OpenApiDocument['paths'][string]['get'] & {};
const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation: operation as Operation })),
  );
const allOperations = Object.entries(documents).flatMap(([api, document]) =>
  operationsOf(document).map((entry) => ({ api, ...entry, name: `${api}: ${entry.method} ${entry.path}` })),
);

const idOf = (schema: z.ZodType) => z.globalRegistry.get(schema)?.id as string;
/** Every schema of `schemas.*` by the id it carries (`.meta({ id })`), and the one body without an id. */
const schemaById = new Map<string, z.ZodType>([
  ...(Object.values(schemas) as unknown[])
    .filter((value): value is z.ZodType => value instanceof z.ZodType && idOf(value) !== undefined)
    .map((schema) => [idOf(schema), schema] as const),
  ['SellerLoginRequest', schemas.sellerLoginRequest],
]);

const componentRef = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** The component id of an operation's 200 body. */
function successComponent(document: OpenApiDocument, method: string, path: string): string {
  const operation = (document.paths[path] as Record<string, Operation>)[method];
  const schema = operation?.responses['200']?.content?.['application/json']?.schema;
  if (schema === undefined || !('$ref' in schema) || typeof schema.$ref !== 'string') throw new Error(path);
  return schema.$ref.split('/').at(-1)!;
}

/** z.toJSONSchema of one schema as the documents must hold it: `$defs` refs point at components instead. */
function standalone(schema: z.ZodType) {
  const text = JSON.stringify(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }));
  const {
    $schema: _,
    $defs = {},
    ...root
  } = JSON.parse(text.replaceAll('#/$defs/', '#/components/schemas/'));
  return { root, defs: $defs as Record<string, unknown> };
}

/** Asserts the document holds `schema` converted: as a component where named, and every named schema inside. */
/** A component without the dynamic-mock hint a paged payload's `data` carries (D-OA-9). */
function withoutMockHint(component: JsonSchema | undefined): JsonSchema | undefined {
  const data = component?.properties?.data;
  if (component === undefined || typeof data !== 'object' || !('x-faker' in data)) return component;
  const { 'x-faker': _hint, ...plain } = data as JsonSchema & { 'x-faker': unknown };
  return { ...component, properties: { ...component.properties, data: plain } };
}

/** The webhook event schemas by component id. */
const webhookEvents = {
  ContractCreatedEvent: schemas.contractCreatedEvent,
  CancellationVerifiedEvent: schemas.cancellationVerifiedEvent,
  CancellationContradictedEvent: schemas.cancellationContradictedEvent,
  AuthorizationExpiredEvent: schemas.authorizationExpiredEvent,
};

function expectConverted(document: OpenApiDocument, schema: z.ZodType, id: string) {
  const { root, defs } = standalone(schema);
  const components = Object.fromEntries(
    Object.entries(document.components.schemas).map(([name, value]) => [name, withoutMockHint(value)]),
  );
  if (idOf(schema) === undefined) expect(components[id]).toEqual(root);
  else expect(root).toEqual(componentRef(id));
  for (const [defId, def] of Object.entries(defs)) expect(components[defId], defId).toEqual(def);
}

describe('the OpenAPI documents', () => {
  it.each(Object.entries(documents))('%s is a valid OpenAPI 3.1 document', async (_, document) => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.info.version).toBe('1.0.0');
  });

  it('the validator rejects a document whose $ref dangles', async () => {
    const broken = structuredClone(salesAuthorization);
    broken.components.schemas = Object.fromEntries(
      Object.entries(broken.components.schemas).filter(([id]) => id !== 'FinancedAmount'),
    );
    const result = await validate(broken as never);
    expect(result.valid).toBe(false);
  });

  it.each(Object.entries(endpoints))(
    'spec 4: %s holds every endpoint of its table, and no other',
    (api, table) => {
      const document = documents[api as keyof typeof documents];
      const present = operationsOf(document).map(({ method, path }) => `${method} ${path}`);
      expect(present.sort()).toEqual(table.map(([method, path]) => `${method} ${path}`).sort());
    },
  );

  it.each(Object.entries(specStatuses))(
    'spec 4: %s answers the statuses the spec lists',
    (endpoint, statuses) => {
      const [method, path] = endpoint.split(' ') as [string, string];
      const operation = (partnerPos.paths[path] as Record<string, Operation>)[method]!;
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(statuses));
    },
  );

  it.each(allOperations)(
    'spec 7: $name answers every code it lists under the catalog status',
    ({ operation }) => {
      const codes = operation['x-error-codes'] as string[];
      expect(codes.length).toBeGreaterThan(0);
      for (const code of codes) {
        expect(isKnownErrorCode(code), code).toBe(true);
        const response = operation.responses[String(errorCatalog[code as keyof typeof errorCatalog].status)];
        expect(response?.content?.['application/json']?.examples, code).toHaveProperty(code);
      }
      const statuses = Object.keys(operation.responses).filter((status) => status !== '200');
      const listed = new Set(
        codes.map((code) => String(errorCatalog[code as keyof typeof errorCatalog].status)),
      );
      expect(statuses.sort()).toEqual([...listed].sort());
    },
  );

  it.each(allOperations)(
    'spec 5 and 8: $name needs a token, answers 401 and 429 with Retry-After',
    ({ path, operation }) => {
      expect(operation.responses['429']?.headers).toHaveProperty('Retry-After');
      expect(operation.responses['401']).toBeDefined();
      if (path === '/v1/oauth/token') expect(operation.security).toEqual([{ clientSecretBasic: [] }, {}]);
      else expect(operation.security).toEqual([{ systemToken: expect.any(Array) }]);
      const scopes = operation.security[0]?.systemToken ?? [];
      if (scopes.length > 0) expect(operation.responses['403']).toBeDefined();
    },
  );

  it.each(allOperations)('spec 1: $name returns X-Processing-Time-Ms on every response', ({ operation }) => {
    for (const response of Object.values(operation.responses)) {
      expect(response.headers).toHaveProperty('X-Processing-Time-Ms');
    }
  });

  it.each(allOperations)(
    'spec 5: $name requires X-Request-Id and X-Correlation-Id (optional on the token endpoint, D-OA-5)',
    ({ operation, path }) => {
      if (path === '/v1/oauth/token') {
        const headers = operation.parameters.filter(
          (parameter) => !('$ref' in parameter) && parameter.in === 'header',
        ) as { name: string; required?: boolean }[];
        expect(headers.map((header) => [header.name, header.required])).toEqual([
          ['X-Request-Id', false],
          ['X-Correlation-Id', false],
        ]);
        return;
      }
      const refs = operation.parameters.map((parameter) =>
        '$ref' in parameter ? parameter.$ref : parameter.name,
      );
      expect(refs).toEqual(
        expect.arrayContaining([
          '#/components/parameters/XRequestId',
          '#/components/parameters/XCorrelationId',
        ]),
      );
    },
  );

  it('spec 5: the headers are required uuids, and Idempotency-Key guards exactly the write POSTs', () => {
    for (const document of Object.values(documents)) {
      for (const parameter of Object.values(document.components.parameters)) {
        expect(parameter).toMatchObject({ in: 'header', required: true, schema: { format: 'uuid' } });
      }
    }
    const idempotent = allOperations
      .filter(({ operation }) =>
        operation.parameters.some((p) => '$ref' in p && p.$ref === '#/components/parameters/IdempotencyKey'),
      )
      .map(({ name }) => name);
    expect(idempotent.sort()).toEqual([
      'Partner POS: post /v1/stock/reservations',
      'Partner POS: post /v1/stock/reservations/{reservationId}/extend',
      'Partner POS: post /v1/stock/reservations/{reservationId}/release',
      'Sales Authorization: post /v1/sales/authorize',
      'Sales Authorization: post /v1/sales/{id}/cancel',
      'Sales Authorization: post /v1/sales/{id}/confirm',
    ]);
    for (const { operation } of allOperations.filter(({ name }) => idempotent.includes(name))) {
      expect(operation.responses['409']).toBeDefined();
    }
  });

  it('spec 5: each API offers OAuth2 client credentials with the scopes of its table, described', () => {
    const scopesOf = (document: OpenApiDocument) =>
      (document.components.securitySchemes.systemToken as OAuth2SecurityScheme | undefined)?.flows
        .clientCredentials;
    expect(Object.keys(scopesOf(partnerPos)?.scopes ?? {})).toEqual([
      'catalog:read',
      'inventory:read',
      'sales:read',
    ]);
    expect(Object.keys(scopesOf(salesAuthorization)?.scopes ?? {})).toEqual(['sales:authorize']);
    for (const document of Object.values(documents)) {
      expect(scopesOf(document)?.tokenUrl).toBe('/v1/oauth/token');
      for (const description of Object.values(scopesOf(document)?.scopes ?? {}))
        expect(description).not.toBe('');
    }
  });

  it.each(Object.entries(documents))(
    'spec 4: the %s token endpoint is form-encoded, with RFC 6749 error bodies',
    (_, document) => {
      const token = document.paths['/v1/oauth/token']?.post;
      expect(token?.requestBody?.content).toEqual({
        'application/x-www-form-urlencoded': expect.objectContaining({
          schema: componentRef('TokenRequest'),
        }),
      });
      expect(token?.responses['200']?.content?.['application/json']?.schema).toEqual(
        componentRef('TokenResponse'),
      );
      // RFC 6749 section 5.2: a request that does not fit is 400 `invalid_request`, never 422.
      expect(Object.keys(token?.responses ?? {})).toContain('400');
      expect(Object.keys(token?.responses ?? {})).not.toContain('422');
      for (const [status, response] of Object.entries(token?.responses ?? {})) {
        if (status !== '200')
          expect(response.content?.['application/json']?.schema).toEqual(componentRef('TokenError'));
      }
    },
  );

  it('every other error response is the error envelope', () => {
    for (const { path, operation } of allOperations.filter(({ path }) => path !== '/v1/oauth/token')) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '200') continue;
        expect(response.content?.['application/json']?.schema, `${path} ${status}`).toEqual(
          componentRef('ErrorEnvelope'),
        );
      }
    }
  });

  it('DESIGN 8: GET /v1/stock takes storeId and sku and answers a StockLevel in the envelope', () => {
    const stock = partnerPos.paths['/v1/stock']?.get;
    expect(stock?.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'storeId', in: 'query', required: true }),
        expect.objectContaining({ name: 'sku', in: 'query', required: true }),
      ]),
    );
    const response = partnerPos.components.schemas.StockResponse;
    expect(response?.properties?.data).toEqual(componentRef('StockLevel'));
  });

  it('R-01: every store-scoped read answers store_context_required (400)', () => {
    for (const path of ['/v1/plans', '/v1/products', '/v1/products/barcode', '/v1/services', '/v1/stock']) {
      const operation = partnerPos.paths[path]?.get;
      expect(operation?.['x-error-codes'], path).toContain('store_context_required');
      expect(operation?.parameters, path).toContainEqual(
        expect.objectContaining({ name: 'storeId', required: true }),
      );
    }
  });

  it('issue 35 §1, SL-1/SL-9: Partner POS states the v2.0 seller login and deprecates the session operation', () => {
    const login = partnerPos.components.securitySchemes.sellerLogin as
      | OpenIdConnectSecurityScheme
      | undefined;
    expect(login?.type).toBe('openIdConnect');
    expect(login?.openIdConnectUrl).toBe('https://pos.example.com/.well-known/openid-configuration');
    for (const requirement of [
      'pushed_authorization_request_endpoint',
      'S256',
      'authorization_response_iss_parameter_supported',
      'tls_client_auth',
      'private_key_jwt',
      'RFC 9449',
      'PS256, ES256 or EdDSA',
      '`store_id` authorization-request parameter',
      '`cpf`',
      '`store_cnpj`',
      '`is_manager`',
      'docs/seller-login.md',
    ])
      expect(login?.description).toContain(requirement);
    expect(partnerPos.info.description).toContain('v2.0 replaces credential passthrough');
    // No operation takes the seller login's tokens: it is the login the API describes, not a requirement.
    const required = allOperations.flatMap(({ operation }) => operation.security.flatMap(Object.keys));
    expect(required).not.toContain('sellerLogin');
    expect(salesAuthorization.components.securitySchemes.sellerLogin).toBeUndefined();

    const session = partnerPos.paths['/v1/sellers/session']?.post;
    expect(session?.deprecated).toBe(true);
    expect(session?.description).toContain('at least 12 months');
    expect(session?.description).toContain('`sellerLogin`');
    const deprecated = allOperations.filter(({ operation }) => operation.deprecated);
    expect(deprecated.map(({ path }) => path)).toEqual(['/v1/sellers/session']);
  });
});

describe('the documents match the zod schemas', () => {
  it.each(Object.entries(documents))(
    '%s: every named component equals z.toJSONSchema of its schema',
    (_, document) => {
      const present = [...schemaById].filter(([id]) => id in document.components.schemas);
      expect(present.length).toBeGreaterThan(5);
      for (const [id, schema] of present) expectConverted(document, schema, id);
    },
  );

  it.each(Object.entries(endpoints))(
    '%s: every 200 body is the envelope around its payload schema',
    (api, table) => {
      const document = documents[api as keyof typeof documents];
      for (const [method, path, payload] of table) {
        const id = successComponent(document, method, path);
        if (path === '/v1/oauth/token') expectConverted(document, payload, id);
        else expectConverted(document, schemas.successEnvelope(payload), id);
      }
    },
  );

  it.each(Object.entries(documents))(
    '%s: every component schema comes from a zod schema',
    (api, document) => {
      expectConverted(partnerPos, schemas.sellerLoginRequest, 'SellerLoginRequest');
      const covered = new Set([
        ...schemaById.keys(),
        ...(api === 'Sales Authorization' ? Object.keys(webhookEvents) : []),
        ...endpoints[api as keyof typeof endpoints].map(([method, path]) =>
          successComponent(document, method, path),
        ),
      ]);
      expect(Object.keys(document.components.schemas).filter((id) => !covered.has(id))).toEqual([]);
    },
  );

  it('Sales Authorization: each webhook (spec v1.1) posts its zod event schema, signed with the three Standard Webhooks headers', () => {
    const document = documents['Sales Authorization'];
    expect(Object.keys(document.webhooks ?? {})).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const [id, schema] of Object.entries(webhookEvents)) {
      expectConverted(document, schema, id);
      const type = schema.shape.type.value;
      const operation = document.webhooks?.[type]?.post;
      expect(operation?.requestBody?.content['application/json']?.schema).toEqual(componentRef(id));
      expect(operation?.parameters.map((parameter) => 'name' in parameter && parameter.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ]);
    }
  });

  it.each(Object.entries(documents))('%s: query parameters are the zod query schemas', (_, document) => {
    const queries: Record<string, z.ZodObject> = {
      '/v1/employees': schemas.employeesQuery,
      '/v1/stores': schemas.storesQuery,
      '/v1/plans': schemas.plansQuery,
      '/v1/products': schemas.productsQuery,
      '/v1/products/barcode': schemas.barcodeQuery,
      '/v1/services': schemas.servicesQuery,
      '/v1/stock': schemas.stockQuery,
      '/v1/imei/validate': schemas.imeiQuery,
      '/v1/stock/reservations': schemas.reservationQuery,
      '/v1/stock/reservations/{reservationId}': schemas.reservationQuery,
      '/v1/stock/reservations/{reservationId}/extend': schemas.reservationQuery,
      '/v1/stock/reservations/{reservationId}/release': schemas.reservationQuery,
    };
    for (const { path, operation } of operationsOf(document)) {
      const query = operation.parameters.filter((p) => !('$ref' in p) && p.in === 'query');
      const expected = queries[path] ? standalone(queries[path]).root : { properties: {} };
      expect(Object.fromEntries(query.map((p) => ('schema' in p ? [p.name, p.schema] : [])))).toEqual(
        expected.properties,
      );
      for (const parameter of query) {
        if ('name' in parameter)
          expect(parameter.required).toBe(expected.required?.includes(parameter.name) ?? false);
      }
    }
  });

  it.each(allOperations)('$name: every example parses with its zod schema', ({ api, path, operation }) => {
    const document = documents[api as keyof typeof documents];
    const isToken = path === '/v1/oauth/token';
    const payload = endpoints[api as keyof typeof endpoints].find(([, p]) => p === path)![2];
    const success = isToken ? payload : schemas.successEnvelope(payload);
    const exampleValue = (example: { value: unknown } | { $ref: string }) =>
      '$ref' in example
        ? document.components.examples[example.$ref.split('/').at(-1)!]?.value
        : example.value;

    for (const body of Object.values(operation.requestBody?.content ?? {})) {
      const schema = schemaById.get((body.schema as { $ref: string }).$ref.split('/').at(-1)!)!;
      for (const example of Object.values(body.examples ?? {})) {
        expect(() => schema.parse(exampleValue(example))).not.toThrow();
      }
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const [name, example] of Object.entries(response.content?.['application/json']?.examples ?? {})) {
        const value = exampleValue(example);
        if (status === '200') {
          expect(() => success.parse(value), name).not.toThrow();
          continue;
        }
        const body = isToken
          ? schemas.tokenErrorResponse.parse(value)
          : schemas.errorEnvelope.parse(value).error;
        const entry = errorCatalog[body.code as keyof typeof errorCatalog];
        expect([body.code, body.legacyCode, String(entry.status)]).toEqual([name, entry.legacyCode, status]);
      }
    }
  });
});
