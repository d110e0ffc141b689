// `POST /v1/oauth/token`, offered by both APIs: form-encoded client credentials, RFC 6749 error bodies.

import type { Scope } from '../schemas/oauth.js';
import { tokenRequest, tokenResponse } from '../schemas/oauth.js';
import { rateLimit } from './conventions.js';
import { tokenExamples } from './examples.js';
import type { OperationDefinition } from './operation.js';
import { tokenPath } from './security.js';

/** `scopes`: what this API's tokens carry, shown in the examples. */
export const tokenOperation = (scopesNote: string, scopes: readonly Scope[]): OperationDefinition => ({
  method: 'post',
  path: tokenPath,
  operationId: 'issueToken',
  summary: 'Issue a system token',
  description:
    'OAuth 2.0 client credentials (RFC 6749 section 4.4). No bearer token is needed here. The token ' +
    `identifies the application, not the seller, and lasts 1 hour. ${scopesNote} Errors keep RFC 6749's ` +
    'top-level `error` so OAuth libraries understand them; our catalog code travels in `code` and `legacyCode`.',
  tag: 'System token',
  scopes: 'none',
  body: {
    schema: tokenRequest,
    mediaType: 'application/x-www-form-urlencoded',
    examples: { clientCredentials: tokenExamples(scopes.join(' ')).request },
  },
  response: {
    schema: tokenResponse,
    envelope: false,
    description: 'The system token: plain JSON, no envelope.',
    examples: { token: tokenExamples(scopes.join(' ')).response },
  },
  errors: ['invalid_client'],
  errorFormat: 'oauth',
  extensions: rateLimit(60),
});
