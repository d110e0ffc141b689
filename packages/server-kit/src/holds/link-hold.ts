// Links a hold the service made to the proposal service.proposals.approve stores (HOLD-3): the worker then follows that proposal's authorization.
import { FinApiError } from '@fin/core';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { HoldRecord } from '../ports/hold-record.js';
import { changeHold } from './change-hold.js';

const refused = (issue: string) =>
  new FinApiError({ code: 'validation_error', details: [{ field: 'hold.reservationId', issue }] });

/**
 * The hold `reservationId` at `storeId`, now serving `proposalId`. Refused: an unknown hold
 * (`reservation_not_found`), one that ended or is being released (`reservation_not_active`), one already
 * serving another proposal (`validation_error`). Linking it again to the same proposal changes nothing.
 */
export function linkHold(
  deps: ServiceDeps,
  storeId: string,
  reservationId: string,
  proposalId: string,
): Promise<HoldRecord> {
  return changeHold(
    deps,
    { storeId, reservationId },
    (hold) => {
      if (hold.proposalId === proposalId) return hold;
      if (hold.proposalId) return refused('this hold already serves another proposal');
      if (hold.state !== 'ACTIVE' || hold.releaseReason || hold.nextCheckAt === null) {
        return new FinApiError({
          code: 'reservation_not_active',
          details: [{ field: 'hold.reservationId', issue: hold.releaseReason ? 'RELEASING' : hold.state }],
        });
      }
      return { ...hold, proposalId, nextCheckAt: deps.clock.now().toISOString() };
    },
    'hold.reservationId',
  );
}
