// Error responses of an operation, grouped by the HTTP status the error catalog gives each code.
import type { ErrorFormat } from '../endpoints/endpoint.js';
import { type ErrorCode, errorCatalog, errorCodes } from '../errors/catalog.js';
import { tokenEndpointErrors } from '../errors/token-errors.js';
import { type ErrorEnvelope, errorEnvelope } from '../schemas/envelope.js';
import { type TokenErrorResponse, tokenErrorResponse } from '../schemas/oauth.js';
import type { ExampleObject, Reference, ResponseObject } from './document.js';
import { headerRef } from './headers.js';
import { refTo } from './json-schema.js';

export const exampleTimestamp = '2026-01-15T12:00:00.000Z';
export const exampleRequestId = '9b2f6c1e-4d3a-4f8b-9c7d-2e1f0a3b4c5d';

const exampleName = (code: ErrorCode, format: ErrorFormat) => (format === 'oauth' ? `oauth_${code}` : code);

function exampleValue(code: ErrorCode, format: ErrorFormat): ErrorEnvelope | TokenErrorResponse {
  const { legacyCode, message } = errorCatalog[code];
  const envelope = {
    success: false,
    message,
    timestamp: exampleTimestamp,
    requestId: exampleRequestId,
  } as const;
  if (format === 'envelope') return { ...envelope, data: null, error: { code, legacyCode, message } };
  const error = (tokenEndpointErrors as Partial<Record<ErrorCode, TokenErrorResponse['error']>>)[code];
  if (error === undefined) throw new Error(`the token endpoint has no RFC 6749 error for ${code}`);
  return { error, error_description: message, ...envelope, data: null, code, legacyCode };
}

/** Components `examples`: one error body per code, as the server answers it. */
export function errorExamples(
  codes: Iterable<ErrorCode>,
  format: ErrorFormat,
): Record<string, ExampleObject> {
  const examples: Record<string, ExampleObject> = {};
  for (const code of codes) {
    const { status, legacyCode, action } = errorCatalog[code];
    examples[exampleName(code, format)] = {
      summary: `${status} ${code} (${legacyCode})`,
      description: action,
      value: exampleValue(code, format),
    };
  }
  return examples;
}

/** Headers of every answer of an operation: the token endpoint's are never cached. */
export function commonResponseHeaders(format: ErrorFormat): Record<string, Reference> {
  return {
    'X-Processing-Time-Ms': headerRef('X-Processing-Time-Ms'),
    'X-Request-Id': headerRef('X-Request-Id'),
    ...(format === 'oauth' && { 'Cache-Control': headerRef('Cache-Control'), Pragma: headerRef('Pragma') }),
  };
}

const reasons: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized (system token)',
  403: 'Forbidden (token scope)',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Semantically invalid request',
  429: 'Rate limit exceeded',
  500: 'Internal error',
  503: 'Service unavailable',
};

/** One response per status among `codes`, in catalog order, each code an example of the body. */
export function errorResponses(
  codes: ReadonlySet<ErrorCode>,
  format: ErrorFormat,
): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes.filter((known) => codes.has(known))) {
    const { status } = errorCatalog[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const schema = refTo(format === 'oauth' ? tokenErrorResponse : errorEnvelope);
  const responses: Record<string, ResponseObject> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers = commonResponseHeaders(format);
    if (format === 'oauth' && status === 401) headers['WWW-Authenticate'] = headerRef('WWW-Authenticate');
    if (status === 429 || status === 503 || statusCodes.includes('idempotency_key_in_progress')) {
      headers['Retry-After'] = headerRef('Retry-After');
    }
    const examples = Object.fromEntries(
      statusCodes.map((code) => [code, { $ref: `#/components/examples/${exampleName(code, format)}` }]),
    );
    responses[String(status)] = {
      description: `${reasons[status] ?? 'Error'}: ${statusCodes.map((code) => `\`${code}\``).join(', ')}.`,
      headers,
      content: { 'application/json': { schema, examples } },
    };
  }
  return responses;
}
