// System token (OAuth 2.0 client_credentials), offered by both APIs.
import * as z from 'zod';
import { text, utcDateTime } from './primitives.js';

export const scope = z.enum(['catalog:read', 'inventory:read', 'sales:read', 'sales:authorize']);
export type Scope = z.infer<typeof scope>;

const grantType = z.literal('client_credentials');
const requestedScope = z.string().max(512).optional();

/**
 * Form-encoded request body of `POST /v1/oauth/token` with `client_secret_post` client authentication:
 * the id and secret travel in the form (RFC 6749 section 2.3.1).
 */
export const tokenRequest = z
  .object({
    grant_type: grantType,
    client_id: text.min(1).max(256),
    client_secret: z.string().min(1).max(512).meta({ writeOnly: true, format: 'password' }),
    scope: requestedScope,
  })
  .meta({ id: 'TokenRequestClientSecretPost' });
export type TokenRequest = z.infer<typeof tokenRequest>;

/**
 * The form with `client_secret_basic`: the id and secret travel in `Authorization: Basic` (each
 * form-urlencoded, then `id:secret` base64-encoded); the form may repeat the same `client_id`, never
 * carries `client_secret` (two methods in one request are `invalid_request`).
 */
export const tokenRequestBasic = z
  .object({ grant_type: grantType, client_id: text.min(1).max(256).optional(), scope: requestedScope })
  .meta({ id: 'TokenRequestClientSecretBasic' });
export type TokenRequestBasic = z.infer<typeof tokenRequestBasic>;

/** The token request form, with either client authentication method. */
export const tokenRequestForm = z.union([tokenRequest, tokenRequestBasic]).meta({ id: 'TokenRequest' });

/** 200 body of the token endpoint: plain JSON, no envelope. */
export const tokenResponse = z
  .object({
    access_token: z.string().min(1),
    // Sent as exactly `Bearer` (the documents' enum); read case-insensitively, as RFC 6749 section 5.1 allows.
    token_type: z
      .string()
      .refine((t) => t.toLowerCase() === 'bearer', 'token_type must be Bearer')
      .meta({ enum: ['Bearer'] }),
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
