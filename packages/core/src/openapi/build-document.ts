// Builds an OpenAPI 3.1 document from the endpoint registry: schemas from zod, errors from the catalog.
import type * as z from 'zod';
import {
  type EndpointDefinition,
  type EndpointTable,
  type NamedExample,
  perMinuteOf,
} from '../endpoints/endpoint.js';
import { endpointErrorCodes } from '../endpoints/error-codes.js';
import { successEnvelope } from '../schemas/envelope.js';
import type { Scope } from '../schemas/oauth.js';
import { rateLimit } from './conventions.js';
import type {
  ExampleObject,
  JsonSchema,
  MediaTypeObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  PathItemObject,
  Reference,
  SecurityScheme,
} from './document.js';
import {
  commonResponseHeaders,
  errorExamples,
  errorResponses,
  exampleRequestId,
  exampleTimestamp,
} from './error-responses.js';
import { headerParameters, optionalRequestIdParameters, parameterRef, responseHeaders } from './headers.js';
import { componentRef, refTo, schemaId, toComponentSchemas, toInlineSchema } from './json-schema.js';
import {
  clientSecretBasicName,
  clientSecretBasicScheme,
  oauth2Scheme,
  securityFor,
  securitySchemeName,
} from './security.js';
import { type WebhookDefinition, webhookOperation } from './webhooks.js';

export interface ApiDefinition {
  title: string;
  summary: string;
  description: string;
  server: { default: string; description: string };
  /** Scopes of this API, offered by its security scheme. */
  scopes: readonly Scope[];
  tags: { name: string; description: string }[];
  /** The API's entries of the endpoint registry, by operationId. */
  endpoints: EndpointTable;
  /** Security schemes beside the system token's that no operation requires (a login the API describes). */
  securitySchemes?: Record<string, SecurityScheme>;
  /** Requests the API sends to its callers (the `webhooks` section). */
  webhooks?: readonly WebhookDefinition[];
}

/** The version of both APIs (spec section 9). */
export const apiVersion = '1.0.0';

function parametersOf(schema: z.ZodObject, location: 'query' | 'path'): ParameterObject[] {
  const { properties = {}, required = [] } = toInlineSchema(schema);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: required.includes(name),
    schema: property as JsonSchema,
  }));
}

const toExamples = (examples: Record<string, NamedExample>, wrap: (value: unknown) => unknown) =>
  Object.fromEntries(
    Object.entries(examples).map(([name, { summary, value }]) => [name, { summary, value: wrap(value) }]),
  );

const inEnvelope = (data: unknown) => ({
  success: true,
  message: '',
  timestamp: exampleTimestamp,
  requestId: exampleRequestId,
  data,
  error: null,
});

function bodySchemaRef(
  schema: z.ZodType,
  name: string | undefined,
  extra: Map<string, z.ZodType>,
): Reference {
  if (schemaId(schema) !== undefined) return refTo(schema);
  if (name === undefined) throw new Error('a body schema without .meta({ id }) needs a name');
  extra.set(name, schema);
  return { $ref: componentRef(name) };
}

function toOperation(
  operationId: string,
  operation: EndpointDefinition,
  extra: Map<string, z.ZodType>,
): OperationObject {
  const { body, response, docs } = operation;
  // The token endpoint lets plain OAuth libraries omit the request ids (checked when sent).
  const parameters: (ParameterObject | Reference)[] =
    operation.rate === 'token'
      ? optionalRequestIdParameters()
      : [parameterRef('XRequestId'), parameterRef('XCorrelationId')];
  if (operation.rate === 'write') parameters.push(parameterRef('IdempotencyKey'));
  if (operation.pathParameters) parameters.push(...parametersOf(operation.pathParameters, 'path'));
  if (operation.query) parameters.push(...parametersOf(operation.query, 'query'));

  const success: MediaTypeObject = response.envelope
    ? { schema: bodySchemaRef(successEnvelope(response.schema), response.name, extra) }
    : { schema: refTo(response.schema) };
  if (response.examples) {
    success.examples = toExamples(response.examples, response.envelope ? inEnvelope : (value) => value);
  }
  const codes = endpointErrorCodes(operation);
  return {
    operationId,
    summary: docs.summary,
    description: docs.description,
    tags: [docs.tag],
    ...(docs.deprecated && { deprecated: true }),
    security: securityFor(operation.scopes),
    parameters,
    ...(body && {
      requestBody: {
        required: true,
        content: {
          [body.mediaType]: {
            schema: bodySchemaRef(body.schema, body.name, extra),
            ...(body.examples && { examples: toExamples(body.examples, (value) => value) }),
          },
        },
      },
    }),
    responses: {
      '200': {
        description: response.description,
        headers: commonResponseHeaders(operation.errorFormat ?? 'envelope'),
        content: { 'application/json': success },
      },
      ...errorResponses(codes, operation.errorFormat ?? 'envelope'),
    },
    'x-error-codes': [...codes].sort(),
    ...docs.extensions,
    ...rateLimit(perMinuteOf[operation.rate]),
  };
}

/** The components of `all` that `paths` references under `prefix`, in their order. */
function used<T>(paths: unknown, prefix: string, all: Record<string, T>): Record<string, T> {
  const text = JSON.stringify(paths);
  return Object.fromEntries(Object.entries(all).filter(([name]) => text.includes(`"${prefix}${name}"`)));
}

/**
 * A paged payload's `data` gets a hint for dynamic mock generators (Prism's `x-faker`): pick one of its
 * examples, since no JSON Schema keyword can make `page`, `totalPages` and the item count agree.
 */
function withMockHints(
  components: Record<string, JsonSchema>,
  hints: ReadonlyMap<string, unknown[]>,
): Record<string, JsonSchema> {
  for (const [name, values] of hints) {
    const data = components[name]?.properties?.data;
    if (data === undefined || typeof data !== 'object') throw new Error(`no data in component ${name}`);
    Object.assign(data, { 'x-faker': { 'helpers.arrayElement': [values] } });
  }
  return components;
}

/** Component name -> example payloads, for every envelope response whose payload carries `pagination`. */
function pagedExamples(endpoints: EndpointTable): Map<string, unknown[]> {
  const hints = new Map<string, unknown[]>();
  for (const { response } of Object.values(endpoints)) {
    const shape = (response.schema as { shape?: Record<string, unknown> }).shape;
    if (!response.envelope || shape?.pagination === undefined) continue;
    if (!response.examples) throw new Error(`the paged response ${response.name} needs examples`);
    hints.set(
      response.name,
      Object.values(response.examples).map(({ value }) => value),
    );
  }
  return hints;
}

/** Keeps the component schemas the document reaches through `$ref`, sorted by id. */
function reachable(from: unknown, all: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const prefix = componentRef('');
  const kept = new Set<string>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key !== '$ref' || typeof value !== 'string') visit(value);
      else if (value.startsWith(prefix) && !kept.has(value.slice(prefix.length))) {
        kept.add(value.slice(prefix.length));
        visit(all[value.slice(prefix.length)]);
      }
    }
  };
  visit(from);
  return Object.fromEntries(
    [...kept].sort().map((id) => {
      const schema = all[id];
      if (schema === undefined) throw new Error(`no component schema ${id}`);
      return [id, schema];
    }),
  );
}

export function buildOpenApiDocument(api: ApiDefinition): OpenApiDocument {
  const extra = new Map<string, z.ZodType>();
  const pageHints = pagedExamples(api.endpoints);
  const paths: Record<string, PathItemObject> = {};
  const examples: Record<string, ExampleObject> = {};
  for (const [operationId, endpoint] of Object.entries(api.endpoints)) {
    const method = endpoint.method === 'GET' ? 'get' : 'post';
    paths[endpoint.path] = { ...paths[endpoint.path], [method]: toOperation(operationId, endpoint, extra) };
    Object.assign(examples, errorExamples(endpointErrorCodes(endpoint), endpoint.errorFormat ?? 'envelope'));
  }
  const webhooks: Record<string, PathItemObject> = {};
  for (const definition of api.webhooks ?? []) {
    webhooks[definition.type] = { post: webhookOperation(definition) };
    extra.set(schemaId(definition.schema) ?? definition.type, definition.schema);
  }
  const parameters = used(paths, '#/components/parameters/', headerParameters());
  const headers = used(paths, '#/components/headers/', responseHeaders());
  return {
    openapi: '3.1.1',
    info: {
      title: api.title,
      version: apiVersion,
      summary: api.summary,
      description: api.description,
      contact: { name: 'The @fin SDK authors', url: 'https://example.invalid/fin-sdks/issues' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: '{base_url}',
        description: api.server.description,
        variables: { base_url: { default: api.server.default, description: 'Host root; paths carry /v1.' } },
      },
    ],
    tags: api.tags,
    paths,
    ...(api.webhooks && { webhooks }),
    components: {
      schemas: withMockHints(
        reachable({ paths, webhooks, parameters, headers }, toComponentSchemas(extra)),
        pageHints,
      ),
      parameters,
      headers,
      examples: Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        [securitySchemeName]: oauth2Scheme(api.scopes),
        [clientSecretBasicName]: clientSecretBasicScheme,
        ...api.securitySchemes,
      },
    },
  };
}
