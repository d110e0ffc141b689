// `POST /v1/oauth/token`, offered by both APIs: form-encoded client credentials, RFC 6749 error bodies.
import { tokenErrorCodes } from '../errors/token-errors.js';
import type { Scope } from '../schemas/oauth.js';
import { tokenRequestForm, tokenResponse } from '../schemas/oauth.js';
import { defineEndpoint } from './endpoint.js';
import { tokenExamples } from './examples.js';

export const tokenPath = '/v1/oauth/token';

/** `scopes`: what this API's tokens carry, shown in the examples; `extensions`: the API's own `x-` fields. */
export const tokenEndpoint = (
  scopesNote: string,
  scopes: readonly Scope[],
  extensions: { [key: `x-${string}`]: unknown } = {},
) =>
  defineEndpoint({
    method: 'POST',
    path: tokenPath,
    rate: 'token',
    scopes: 'none',
    body: {
      schema: tokenRequestForm,
      mediaType: 'application/x-www-form-urlencoded',
      examples: tokenExamples(scopes.join(' ')).request,
    },
    response: {
      schema: tokenResponse,
      envelope: false,
      description: 'The system token: plain JSON, no envelope.',
      examples: { token: tokenExamples(scopes.join(' ')).response },
    },
    errors: tokenErrorCodes,
    errorFormat: 'oauth',
    docs: {
      summary: 'Issue a system token',
      description:
        'OAuth 2.0 client credentials (RFC 6749 section 4.4). No bearer token is needed here. The token ' +
        `identifies the application, not the seller, and lasts 1 hour. ${scopesNote} The client authenticates ` +
        'with HTTP Basic (`client_secret_basic`: `client_id` and `client_secret` each form-urlencoded, then ' +
        '`id:secret` base64-encoded) or in the form (`client_secret_post`), never both in one request ' +
        '(`invalid_request`); a failed Basic authentication is answered with `WWW-Authenticate: Basic`. ' +
        '`X-Request-Id` and `X-Correlation-Id` are optional here, for plain OAuth libraries. Every answer ' +
        "carries `Cache-Control: no-store` and `Pragma: no-cache` (RFC 6749 section 5.1). Errors keep RFC 6749's " +
        'top-level `error` so OAuth libraries understand them, with RFC 6749 section 5.2 statuses (400, ' +
        '`invalid_client` 401); our catalog code travels in `code` and `legacyCode`. A body that is not ' +
        'form-encoded is 400 `invalid_request` (`bad_request`); a scope the client does not hold is 400 `invalid_scope`.',
      tag: 'System token',
      extensions,
    },
  });
