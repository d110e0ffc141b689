// Builds every answer as the spec section 2 envelope (and the token endpoint's RFC 6749 bodies), as plain data.
import { catalogEntry, type ErrorCode, type ErrorDetail, errorDocsUrl } from '@fin/core';
import { type TokenErrorCode, tokenEndpointErrors } from '@fin/core/errors';
import type { JsonValue } from '../ports/records.js';
import type { PlainResponse } from './plain.js';

/** What every answer echoes: the request's id (when it was a valid uuid) and the moment of the answer. */
export interface AnswerContext {
  requestId: string | undefined;
  now: Date;
}

export const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

/** Every answer's at the token endpoint's path: never cached (RFC 6749 5.1), errors, 5xx and 405 included. */
export const NO_STORE_HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

/** `Retry-After` of every 503 `service_unavailable`: the clients retry with the same key after it. */
export const UNAVAILABLE_HEADERS = { 'retry-after': '1' };

/** A success envelope; `data` must be JSON data (the use cases build it from records and schemas). */
export function success(ctx: AnswerContext, data: unknown, message = '', status = 200): PlainResponse {
  return {
    status,
    headers: { ...JSON_HEADERS },
    body: envelopeBody(ctx, true, message, data as JsonValue, null),
  };
}

export interface FailureOptions {
  details?: ErrorDetail[];
  message?: string;
  headers?: Record<string, string>;
}

/** An error envelope for a catalog code: status, legacy code and seller-facing message from the one table. */
export function failure(ctx: AnswerContext, code: ErrorCode, options: FailureOptions = {}): PlainResponse {
  const entry = catalogEntry(code)!;
  const message = options.message ?? entry.message;
  const error: JsonValue = {
    code,
    legacyCode: entry.legacyCode,
    message,
    docsUrl: errorDocsUrl(code),
    ...(options.details?.length
      ? { details: options.details.map((d) => ({ field: d.field, issue: d.issue })) }
      : {}),
  };
  return {
    status: entry.status,
    // Object.assign, not a spread-begun literal that gains keys (decision TR-5).
    headers: Object.assign({}, JSON_HEADERS, options.headers),
    body: envelopeBody(ctx, false, message, null, error),
  };
}

function envelopeBody(
  ctx: AnswerContext,
  ok: boolean,
  message: string,
  data: JsonValue,
  error: JsonValue,
): JsonValue {
  return {
    success: ok,
    message,
    timestamp: ctx.now.toISOString(),
    ...(ctx.requestId ? { requestId: ctx.requestId } : {}),
    data,
    error,
  };
}

/**
 * A token endpoint error (decisions C-4, S-12): RFC 6749's `error` (from `tokenEndpointErrors`) and
 * `error_description` for OAuth libraries, beside the envelope fields that fit, our catalog code in `code`
 * and `legacyCode`; the HTTP status is the catalog's, so server, catalog and OpenAPI cannot disagree.
 */
export function tokenFailure(
  ctx: AnswerContext,
  code: TokenErrorCode,
  options: { description?: string; headers?: Record<string, string> } = {},
): PlainResponse {
  const entry = catalogEntry(code)!;
  return {
    status: entry.status,
    headers: Object.assign({}, JSON_HEADERS, options.headers),
    body: {
      error: tokenEndpointErrors[code],
      error_description: options.description ?? entry.message,
      success: false,
      message: entry.message,
      timestamp: ctx.now.toISOString(),
      ...(ctx.requestId ? { requestId: ctx.requestId } : {}),
      data: null,
      code,
      legacyCode: entry.legacyCode,
    },
  };
}
