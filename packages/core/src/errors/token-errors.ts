// The token endpoint's errors (decisions C-4, S-12): every catalog code it answers, with RFC 6749's `error` beside it.
import type { TokenErrorResponse } from '../schemas/oauth.js';
import type { ErrorCode } from './catalog.js';

/**
 * The one table the server answers from and the OpenAPI documents and docs are generated from: the HTTP
 * status is always the catalog's for the code, RFC 6749 section 5.2's (400, `invalid_client` 401) for
 * every OAuth error; the HTTP-level refusals keep their own (413, 429, 5xx). A body that is not
 * form-encoded is `bad_request` (400 `invalid_request`), a scope the client does not hold `invalid_scope`
 * (400), never `unsupported_media_type` 415 nor `insufficient_scope` 403, which belong to the API calls.
 */
export const tokenEndpointErrors = {
  bad_request: 'invalid_request',
  invalid_request_id: 'invalid_request',
  payload_too_large: 'invalid_request',
  request_timeout: 'invalid_request',
  invalid_client: 'invalid_client',
  unsupported_grant_type: 'unsupported_grant_type',
  invalid_scope: 'invalid_scope',
  rate_limit_exceeded: 'rate_limit_exceeded',
  internal_error: 'server_error',
  service_unavailable: 'server_error',
} as const satisfies Partial<Record<ErrorCode, TokenErrorResponse['error']>>;

/** A catalog code the token endpoint may answer. */
export type TokenErrorCode = keyof typeof tokenEndpointErrors;

export const tokenErrorCodes = Object.keys(tokenEndpointErrors) as TokenErrorCode[];
