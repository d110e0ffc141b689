// Transient failures of the sandbox, triggered by the magic fault stores on an authorize call.
import { type Clock, type ErrorCode, endpoints, errorCatalog } from '@fin/core';
import { magicValues } from './magic-values.js';

/** The error envelope of a catalog code, as the real service answers it. */
function failure(
  request: Request,
  now: Date,
  code: ErrorCode,
  headers: Record<string, string> = {},
): Response {
  const { status, legacyCode, message } = errorCatalog[code];
  const requestId = request.headers.get('x-request-id') ?? undefined;
  return Response.json(
    {
      success: false,
      message,
      timestamp: now.toISOString(),
      requestId,
      data: null,
      error: { code, legacyCode, message },
    },
    {
      status,
      headers: {
        'X-Processing-Time-Ms': '0',
        ...(requestId ? { 'X-Request-Id': requestId } : {}),
        ...headers,
      },
    },
  );
}

const { authorizeSale } = endpoints.salesAuthorization;

/**
 * The first attempt of each Idempotency-Key that authorizes for a fault store meets its fault; the
 * retry (same key) goes through, which is what a POS's retry handling must show.
 */
export function createFaults(clock: Clock) {
  const faulted = new Set<string>();
  return async (request: Request): Promise<Response | undefined> => {
    if (request.method !== authorizeSale.method || new URL(request.url).pathname !== authorizeSale.path)
      return undefined;
    const key = request.headers.get('idempotency-key') ?? '';
    if (faulted.has(key)) return undefined;
    const storeId = await request
      .clone()
      .json()
      .then((body: { storeId?: unknown }) => body?.storeId)
      .catch(() => undefined);
    const { rateLimited, unavailableOnce } = magicValues.faultStoreIds;
    if (storeId !== rateLimited && storeId !== unavailableOnce) return undefined;
    faulted.add(key);
    return storeId === rateLimited
      ? failure(request, clock.now(), 'rate_limit_exceeded', {
          'Retry-After': String(magicValues.retryAfterSeconds),
        })
      : failure(request, clock.now(), 'service_unavailable');
  };
}
