// POST /v1/sales/{id}/cancel: records the notice at once, then tries R-08 verification through the partner's sale search.
import type { CancelRequest } from '@fin/core';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { AuthorizationRecord } from '../ports/records.js';
import { effectiveStatus } from '../rules/r06-expiry.js';
import { checkCancelledAt } from '../rules/r06-time-window.js';
import { checkCancelTransition } from '../rules/transitions.js';
import { loadOwned } from './load-owned.js';
import { claimLost, done, refused, type UseCaseResult, type Write } from './result.js';
import { verifyCancellation } from './verify-cancellation.js';

const MESSAGES = {
  VERIFIED: 'Cancelamento confirmado no PDV. Financiamento cancelado.',
  PENDING: 'Cancelamento registrado. O financiamento será cancelado quando o PDV mostrar a venda cancelada.',
  CONTRADICTED: 'Cancelamento registrado, mas a venda consta ativa no PDV. O financiamento continua ativo.',
} as const;

const MAX_WRITES = 3;

/** `schemas.cancelResult`: whether the financing is already cancelled or waits for verification. */
export function cancelData(record: AuthorizationRecord, now: Date) {
  const status = effectiveStatus(record, now);
  return {
    authorizationId: record.authorizationId,
    status,
    reason: record.cancellation?.reason ?? '',
    verification: record.cancellation?.verification ?? 'PENDING',
    financingCancelled: status === 'CANCELLED',
  };
}

export async function cancelSale(
  deps: ServiceDeps,
  input: {
    clientId: string;
    authorizationId: string;
    notice: CancelRequest;
    now: Date;
    write: Write<undefined>;
  },
): Promise<UseCaseResult> {
  const { now, notice } = input;
  for (let attempt = 0; attempt < MAX_WRITES; attempt++) {
    const record = await loadOwned(deps, input.clientId, input.authorizationId);
    if (!record)
      return refused('authorization_not_found', [{ field: 'id', issue: 'no authorization with this id' }]);
    const transition = checkCancelTransition(record, now);
    if (!transition.ok) return refused(transition.code, transition.details);
    if (transition.already) return answer(record, now);
    const dated = checkCancelledAt(record, notice.cancelledAt, now, deps.settings);
    if (!dated.ok) return refused(dated.code, dated.details);
    const written = await deps.store.updateAuthorization({
      record: {
        ...record,
        updatedAt: now.toISOString(),
        cancellation: {
          reason: notice.reason,
          ...(notice.description ? { description: notice.description } : {}),
          ...(notice.cancelledAt ? { cancelledAt: notice.cancelledAt } : {}),
          noticedAt: now.toISOString(),
          verification: 'PENDING',
          attempts: 0,
          nextAttemptAt: now.toISOString(),
          verifiedAt: null,
        },
      },
      expectedVersion: record.version,
      now,
    });
    if (!written.ok) continue;
    // The verification's write carries the answer, which depends on the partner's search; a retry after
    // a fault before it renews the same notice and searches again, as any repeated cancel does.
    const verified = await verifyCancellation(deps, written.record, {
      write: input.write,
      resultOf: (next) => answer(next, now),
    });
    return verified.claimLost ? claimLost() : answer(verified.record, now);
  }
  return refused('service_unavailable');
}

function answer(record: AuthorizationRecord, now: Date): UseCaseResult {
  const data = cancelData(record, now);
  return done(data, MESSAGES[data.verification]);
}
