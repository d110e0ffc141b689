// System token (OAuth 2.0 client_credentials), offered by both APIs.
import * as z from 'zod';
import { text, utcDateTime } from './primitives.js';

export const scope = z.enum(['catalog:read', 'inventory:read', 'sales:read', 'sales:authorize']);
export type Scope = z.infer<typeof scope>;

/** Form-encoded request body of `POST /v1/oauth/token`. */
export const tokenRequest = z
  .object({
    grant_type: z.literal('client_credentials'),
    client_id: text.min(1).max(256),
    client_secret: z.string().min(1).max(512).meta({ writeOnly: true, format: 'password' }),
    scope: z.string().max(512).optional(),
  })
  .meta({ id: 'TokenRequest' });
export type TokenRequest = z.infer<typeof tokenRequest>;

/** 200 body of the token endpoint: plain JSON, no envelope. */
export const tokenResponse = z
  .object({
    access_token: z.string().min(1),
    token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', 'token_type must be Bearer'),
    expires_in: z.number().int().positive(),
    scope: z.string().optional(),
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof tokenResponse>;

/**
 * Error body of the token endpoint: RFC 6749's top-level `error` and `error_description`, so OAuth
 * libraries understand it, beside the envelope fields that fit (`error` being taken, our catalog code
 * travels in `code` and `legacyCode`).
 */
export const tokenErrorResponse = z
  .object({
    error: z.enum([
      'invalid_request',
      'invalid_client',
      'invalid_grant',
      'unauthorized_client',
      'unsupported_grant_type',
      'invalid_scope',
      'rate_limit_exceeded',
      'server_error',
    ]),
    error_description: z.string().optional(),
    success: z.literal(false).optional(),
    message: z.string().optional(),
    timestamp: utcDateTime.optional(),
    requestId: z.string().optional(),
    data: z.null().optional(),
    code: z.string().optional(),
    legacyCode: z.string().optional(),
  })
  .meta({ id: 'TokenError' });
export type TokenErrorResponse = z.infer<typeof tokenErrorResponse>;
