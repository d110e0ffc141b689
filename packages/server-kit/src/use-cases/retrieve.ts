// GET /v1/sales/{id}: the owner's read of an authorization's current state (DESIGN 22; tenancy as DESIGN 7).
import type { AuthorizationState } from '@fin/core';
import type { ServiceDeps } from '../deps/service-deps.js';
import { effectiveStatus } from '../rules/r06-expiry.js';
import { loadOwned } from './load-owned.js';
import { done, refused, type UseCaseResult } from './result.js';

/** `status` as the cancel endpoint reports it: a notice alone leaves it as it was until R-08 verifies it. */
export async function retrieveSale(
  deps: ServiceDeps,
  input: { clientId: string; authorizationId: string; now: Date },
): Promise<UseCaseResult> {
  const record = await loadOwned(deps, input.clientId, input.authorizationId);
  if (!record)
    return refused('authorization_not_found', [{ field: 'id', issue: 'no authorization with this id' }]);
  const { cancellation, contract } = record;
  const data: AuthorizationState = {
    authorizationId: record.authorizationId,
    status: effectiveStatus(record, input.now),
    expiresAt: record.expiresAt,
    ...(contract ? { contractId: contract.contractId } : {}),
    ...(cancellation
      ? {
          cancellation: {
            reason: cancellation.reason,
            noticedAt: cancellation.noticedAt,
            verification: cancellation.verification,
          },
        }
      : {}),
  };
  return done(data, '');
}
