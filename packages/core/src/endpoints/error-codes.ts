// Every error code an endpoint can answer: its own, plus those every endpoint of its kind can.
import type { ErrorCode } from '../errors/catalog.js';
import { tokenErrorCodes } from '../errors/token-errors.js';
import type { EndpointDefinition } from './endpoint.js';

const everywhere: readonly ErrorCode[] = [
  'invalid_request_id',
  'rate_limit_exceeded',
  'internal_error',
  'service_unavailable',
];
const bearer: readonly ErrorCode[] = ['missing_token', 'invalid_token', 'expired_token'];
const withBody: readonly ErrorCode[] = ['bad_request', 'unsupported_media_type', 'payload_too_large'];
const idempotent: readonly ErrorCode[] = [
  'missing_idempotency_key',
  'idempotency_key_conflict',
  'idempotency_key_in_progress',
];

export function endpointErrorCodes(endpoint: EndpointDefinition): Set<ErrorCode> {
  // The token endpoint answers exactly the codes of its one table (`tokenEndpointErrors`, decision S-12).
  if (endpoint.errorFormat === 'oauth') return new Set<ErrorCode>(tokenErrorCodes);
  const { scopes, body, rate } = endpoint;
  const validated = body !== undefined || endpoint.query || endpoint.pathParameters;
  return new Set<ErrorCode>([
    ...everywhere,
    ...(scopes === 'none' ? [] : bearer),
    ...(scopes !== 'none' && scopes.length > 0 ? (['insufficient_scope'] as const) : []),
    ...(body ? withBody : []),
    ...(validated ? (['validation_error'] as const) : []),
    ...(rate === 'write' ? idempotent : []),
    ...endpoint.errors,
  ]);
}
