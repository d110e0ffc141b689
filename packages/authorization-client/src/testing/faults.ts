// Transient failures of the sandbox, triggered by the magic fault stores on an authorize call.
import { magicValues } from './magic-values.js';
import { fail } from './respond.js';

/**
 * The first attempt of each Idempotency-Key that authorizes for a fault store meets its fault; the
 * retry (same key) goes through, which is what a POS's retry handling must show.
 */
export function createFaults(now: () => Date) {
  const faulted = new Set<string>();
  return async (request: Request): Promise<Response | undefined> => {
    if (request.method !== 'POST' || new URL(request.url).pathname !== '/v1/sales/authorize')
      return undefined;
    const key = request.headers.get('idempotency-key') ?? '';
    if (faulted.has(key)) return undefined;
    let storeId: unknown;
    try {
      storeId = (JSON.parse(await request.clone().text()) as { storeId?: unknown }).storeId;
    } catch {
      return undefined;
    }
    const { rateLimited, unavailableOnce } = magicValues.faultStoreIds;
    if (storeId !== rateLimited && storeId !== unavailableOnce) return undefined;
    faulted.add(key);
    return storeId === rateLimited
      ? fail(request, now(), 'rate_limit_exceeded', {
          headers: { 'Retry-After': String(magicValues.retryAfterSeconds) },
        })
      : fail(request, now(), 'service_unavailable');
  };
}
