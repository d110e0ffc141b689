// Transient failures of the sandbox, triggered by the magic fault stores on an authorize call.
import { type Clock, type ErrorCode, endpoints, errorCatalog, errorDocsUrl } from '@fin/core';
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
      error: { code, legacyCode, message, docsUrl: errorDocsUrl(code) },
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
 * retry (same key) goes through, which is what a POS's retry handling must show. `forward` is the
 * sandbox service, for the fault that processes the request and then loses its answer.
 */
export function createFaults(clock: Clock, forward: (request: Request) => Promise<Response>) {
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
    const { rateLimited, unavailableOnce, answerLost } = magicValues.faultStoreIds;
    if (storeId !== rateLimited && storeId !== unavailableOnce && storeId !== answerLost) return undefined;
    faulted.add(key);
    if (storeId === rateLimited) {
      return failure(request, clock.now(), 'rate_limit_exceeded', {
        'Retry-After': String(magicValues.retryAfterSeconds),
      });
    }
    // The service answers 503 with Retry-After: 1 when its database is unavailable.
    if (storeId === answerLost) await forward(request.clone());
    return failure(request, clock.now(), 'service_unavailable', { 'Retry-After': '1' });
  };
}
