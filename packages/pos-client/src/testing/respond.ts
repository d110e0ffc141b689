// Answers of the simulated partner: the spec's envelope, the catalog's errors, X-Request-Id and X-Processing-Time-Ms.
import { catalogEntry, type ErrorCode, type ErrorDetail } from '@fin/core';
import { type TokenErrorCode, tokenEndpointErrors } from '@fin/core/errors';

/** What every answer of one request shares: its id (echoed), when it started, the simulation's clock. */
export interface ExchangeContext {
  requestId: string | undefined;
  startedAt: number;
  now: Date;
}

/** A JSON answer with the headers every answer carries (`X-Request-Id`, `X-Processing-Time-Ms`). */
export function json(
  context: ExchangeContext,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const elapsed = Math.max(0, Math.trunc(performance.now() - context.startedAt));
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'X-Processing-Time-Ms': String(elapsed),
      ...(context.requestId ? { 'X-Request-Id': context.requestId } : {}),
      ...headers,
    },
  });
}

const envelopeFields = (context: ExchangeContext, message: string) => ({
  message,
  timestamp: context.now.toISOString(),
  ...(context.requestId ? { requestId: context.requestId } : {}),
});

/** HTTP 200, `success: true`, the payload in `data`. */
export const ok = (context: ExchangeContext, data: unknown, message = '') =>
  json(context, 200, { success: true, ...envelopeFields(context, message), data, error: null });

/**
 * The error envelope of a code: a catalog code takes the catalog's status, legacy code and message; a code
 * of the partner's own (not in our catalog) gives `status` and `message` itself.
 */
export function fail(
  context: ExchangeContext,
  code: ErrorCode | (string & {}),
  extra: {
    details?: ErrorDetail[];
    message?: string;
    headers?: Record<string, string>;
    status?: number;
  } = {},
) {
  const entry = catalogEntry(code);
  const message = extra.message ?? entry?.message ?? code;
  return json(
    context,
    extra.status ?? entry?.status ?? 500,
    {
      success: false,
      ...envelopeFields(context, message),
      data: null,
      error: {
        code,
        ...(entry ? { legacyCode: entry.legacyCode } : {}),
        message,
        ...(extra.details ? { details: extra.details } : {}),
      },
    },
    extra.headers,
  );
}

/** A token endpoint error: RFC 6749's `error` from `tokenEndpointErrors`, the catalog's status (`status` only for injected faults). */
export function failToken(
  context: ExchangeContext,
  code: TokenErrorCode,
  extra: { status?: number; description?: string; headers?: Record<string, string> } = {},
) {
  const entry = catalogEntry(code)!;
  const description = extra.description ?? entry.message;
  return json(
    context,
    extra.status ?? entry.status,
    {
      error: tokenEndpointErrors[code],
      error_description: description,
      success: false,
      ...envelopeFields(context, description),
      data: null,
      code,
      legacyCode: entry.legacyCode,
    },
    extra.headers,
  );
}

/**
 * RFC 6749 5.1: no answer at the token path is cached, whatever gave it (the grant, a refusal, a 405 to
 * another method, an injected fault); the simulation's `fetch` marks each one with this as it leaves.
 */
export function noStore(response: Response): Response {
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('Pragma', 'no-cache');
  return response;
}

/** A plain JSON answer without envelope (the token endpoint's 200). */
export const plain = (context: ExchangeContext, body: unknown) => json(context, 200, body);

/** A 200 whose JSON body is cut off in the middle, as a proxy dropping the connection mid-stream leaves it. */
export const malformed = (context: ExchangeContext) =>
  new Response(
    `{"success":true,"message":"","timestamp":"${context.now.toISOString()}","data":{"items":[{"sku":`,
    {
      status: 200,
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        ...(context.requestId ? { 'X-Request-Id': context.requestId } : {}),
      },
    },
  );
