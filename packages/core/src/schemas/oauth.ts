// System token (OAuth 2.0 client_credentials), offered by both APIs.
import * as z from 'zod';
import { documentedObject } from './documented-object.js';
import { text, utcDateTime } from './primitives.js';

export const scope = z.enum(['catalog:read', 'inventory:read', 'sales:read', 'sales:authorize']);
export type Scope = z.infer<typeof scope>;

/** The first field of both token request forms. */
const grantTypeField = {
  /** Always `client_credentials` (RFC 6749 section 4.4). */
  grant_type: z.literal('client_credentials'),
};
/** The last field of both token request forms. */
const scopeField = {
  /** Space-separated scopes to ask for; only those in use. */
  scope: z.string().max(512).optional(),
};

/**
 * Form-encoded request body of `POST /v1/oauth/token` with `client_secret_post` client authentication:
 * the id and secret travel in the form (RFC 6749 section 2.3.1).
 */
export const tokenRequest = documentedObject({
  ...grantTypeField,
  /** The API client's id. */
  client_id: text.min(1).max(256),
  /** The API client's secret: write-only, never logged. */
  client_secret: z.string().min(1).max(512).meta({ writeOnly: true, format: 'password' }),
  ...scopeField,
}).meta({ id: 'TokenRequestClientSecretPost' });
export type TokenRequest = z.infer<typeof tokenRequest>;

/**
 * The form with `client_secret_basic`: the id and secret travel in `Authorization: Basic` (each
 * form-urlencoded, then `id:secret` base64-encoded); the form may repeat the same `client_id`, never
 * carries `client_secret` (two methods in one request are `invalid_request`).
 */
export const tokenRequestBasic = documentedObject({
  ...grantTypeField,
  /** The API client's id, the same as in `Authorization: Basic` if repeated. */
  client_id: text.min(1).max(256).optional(),
  ...scopeField,
}).meta({ id: 'TokenRequestClientSecretBasic' });
export type TokenRequestBasic = z.infer<typeof tokenRequestBasic>;

/** The token request form, with either client authentication method. */
export const tokenRequestForm = z.union([tokenRequest, tokenRequestBasic]).meta({ id: 'TokenRequest' });

/** 200 body of the token endpoint: plain JSON, no envelope. */
export const tokenResponse = documentedObject({
  /** The system token: `Authorization: Bearer <access_token>` on every other call. */
  access_token: z.string().min(1),
  // Sent as exactly `Bearer` (the documents' enum); read case-insensitively, as RFC 6749 section 5.1 allows.
  /** `Bearer`. */
  token_type: z
    .string()
    .refine((t) => t.toLowerCase() === 'bearer', 'token_type must be Bearer')
    .meta({ enum: ['Bearer'] }),
  /** Seconds the token lives (3600); renew at least 60 s before. */
  expires_in: z.number().int().positive(),
  /** The scopes granted, space-separated. */
  scope: z.string().optional(),
}).meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof tokenResponse>;

/**
 * Error body of the token endpoint: RFC 6749's top-level `error` and `error_description`, so OAuth
 * libraries understand it, beside the envelope fields that fit (`error` being taken, our catalog code
 * travels in `code` and `legacyCode`).
 */
export const tokenErrorResponse = documentedObject({
  /** RFC 6749's error code (`invalid_client` ...), which OAuth libraries read. */
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
  /** The error in words (RFC 6749). */
  error_description: z.string().optional(),
  /** `false`, as in the envelope. */
  success: z.literal(false).optional(),
  /** Text fit for display, as in the envelope. */
  message: z.string().optional(),
  /** When the answer was made (ISO 8601, UTC), as in the envelope. */
  timestamp: utcDateTime.optional(),
  /** Echo of the request's `X-Request-Id`. */
  requestId: z.string().optional(),
  /** `null`, as in the envelope. */
  data: z.null().optional(),
  /** Our catalog code (`error` being RFC 6749's). */
  code: z.string().optional(),
  /** The catalog code's two letters and four digits. */
  legacyCode: z.string().optional(),
}).meta({ id: 'TokenError' });
export type TokenErrorResponse = z.infer<typeof tokenErrorResponse>;
