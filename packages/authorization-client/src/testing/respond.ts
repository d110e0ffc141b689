// Answers of the sandbox: the spec's envelope with X-Request-Id echoed and X-Processing-Time-Ms.
import { catalogEntry, type ErrorCode, type ErrorDetail } from '@fin/core';

const json = (request: Request, status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, {
    status,
    headers: {
      'X-Processing-Time-Ms': '1',
      'X-Request-Id': request.headers.get('x-request-id') ?? '',
      'X-Correlation-Id': request.headers.get('x-correlation-id') ?? '',
      ...headers,
    },
  });

const fields = (request: Request, message: string, now: Date) => ({
  message,
  timestamp: now.toISOString(),
  requestId: request.headers.get('x-request-id') ?? undefined,
});

export const ok = (request: Request, now: Date, data: unknown, message = '') =>
  json(request, 200, { success: true, ...fields(request, message, now), data, error: null });

export function fail(
  request: Request,
  now: Date,
  code: ErrorCode,
  extra: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
) {
  const entry = catalogEntry(code);
  const message = entry?.message ?? code;
  return json(
    request,
    entry?.status ?? 500,
    {
      success: false,
      ...fields(request, message, now),
      data: null,
      error: { code, legacyCode: entry?.legacyCode, message, details: extra.details },
    },
    extra.headers,
  );
}

/** The token endpoint's answers: plain JSON, RFC 6749 `error` beside our `code` on failure. */
export const tokenOk = (request: Request, accessToken: string) =>
  json(request, 200, {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: 3600,
    scope: 'sales:authorize',
  });

export const tokenFail = (request: Request, error: 'invalid_client' | 'invalid_request', code: ErrorCode) =>
  json(request, catalogEntry(code)?.status ?? 400, {
    error,
    error_description: catalogEntry(code)?.message,
    code,
    legacyCode: catalogEntry(code)?.legacyCode,
  });
