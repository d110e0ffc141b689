// Tenancy (DESIGN 7): an authorization exists, for a client, only when that client created it.

import type { ServiceDeps } from '../deps/service-deps.js';
import type { AuthorizationRecord } from '../ports/records.js';

/** The record when `clientId` owns it; another client's record is indistinguishable from a missing one. */
export async function loadOwned(
  deps: ServiceDeps,
  clientId: string,
  authorizationId: string,
): Promise<AuthorizationRecord | undefined> {
  const record = await deps.store.getAuthorization(authorizationId);
  return record?.clientId === clientId ? record : undefined;
}
