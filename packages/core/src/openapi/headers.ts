// The headers of spec section 5 as reusable OpenAPI parameters, and the response headers of sections 1 and 8.
import * as z from 'zod';
import { uuid } from '../schemas/primitives.js';
import type { HeaderObject, ParameterObject, Reference } from './document.js';
import { toInlineSchema } from './json-schema.js';

/** Example ids (uuid v4) of the documents: what a mock answers and a reader copies. */
const EXAMPLE_IDS = {
  request: '8e2a4f6c-1b3d-4c5e-9f70-2a4b6c8d0e1f',
  correlation: '3c5e7a9b-2d4f-4a6b-8c0d-1e3f5a7b9c2d',
  idempotency: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9',
} as const;

const header = (name: string, description: string, example: string): ParameterObject => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: toInlineSchema(uuid),
  example,
});

const requestIdHeaders = (): [ParameterObject, ParameterObject] => [
  header(
    'X-Request-Id',
    'uuid v4 identifying this one request; a new one on every retry.',
    EXAMPLE_IDS.request,
  ),
  header(
    'X-Correlation-Id',
    'uuid v4 identifying the whole sale journey; identical from the first call to the last.',
    EXAMPLE_IDS.correlation,
  ),
];

/** Components `parameters`: the headers every call (or every write) carries. */
export const headerParameters = (): Record<string, ParameterObject> => ({
  XRequestId: requestIdHeaders()[0],
  XCorrelationId: requestIdHeaders()[1],
  IdempotencyKey: header(
    'Idempotency-Key',
    'uuid v4, one per business intention; a retry after a timeout reuses it. Same key and body within ' +
      '24 hours returns the original response; a different body is `409 idempotency_key_conflict`.',
    EXAMPLE_IDS.idempotency,
  ),
});

/**
 * `X-Request-Id` and `X-Correlation-Id` where they may be absent (the token endpoint): plain OAuth
 * libraries do not send them; our clients always do, and a value sent must still be a uuid v4.
 */
export const optionalRequestIdParameters = (): ParameterObject[] =>
  requestIdHeaders().map((parameter) => ({
    ...parameter,
    required: false,
    description: `${parameter.description} Optional here, for plain OAuth libraries; checked when sent.`,
  }));

export const parameterRef = (name: keyof ReturnType<typeof headerParameters>): Reference => ({
  $ref: `#/components/parameters/${name}`,
});

/** Components `headers`: what responses carry beside the envelope. */
export const responseHeaders = (): Record<string, HeaderObject> => ({
  'X-Request-Id': {
    description: 'The `X-Request-Id` of the request, echoed (also `requestId` in the body).',
    schema: { type: 'string', format: 'uuid' },
    example: EXAMPLE_IDS.request,
  },
  'Cache-Control': {
    description: 'Token answers are never cached (RFC 6749 section 5.1).',
    required: true,
    schema: { type: 'string', const: 'no-store' },
    example: 'no-store',
  },
  Pragma: {
    description: 'For HTTP/1.0 caches, as RFC 6749 section 5.1 asks.',
    required: true,
    schema: { type: 'string', const: 'no-cache' },
    example: 'no-cache',
  },
  'WWW-Authenticate': {
    description: 'Sent when the client authenticated with HTTP Basic and failed (RFC 6749 section 5.2).',
    schema: { type: 'string', pattern: '^Basic ' },
    example: 'Basic realm="fin"',
  },
  'X-Processing-Time-Ms': {
    description: 'Time the server spent processing the request, in milliseconds (never in the body).',
    schema: toInlineSchema(z.number().int().min(0)),
    example: 42,
  },
  'Retry-After': {
    description:
      'Seconds to wait before retrying (with the same Idempotency-Key); always sent with 429, with 409 `idempotency_key_in_progress`, and by the Sales Authorization API with 503 `service_unavailable`.',
    schema: toInlineSchema(z.number().int().min(0)),
    example: 1,
  },
});

export const headerRef = (name: keyof ReturnType<typeof responseHeaders>): Reference => ({
  $ref: `#/components/headers/${name}`,
});
