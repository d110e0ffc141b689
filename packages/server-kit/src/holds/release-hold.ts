// service.holds.release: the financing team's credit flow declined (or the seller gave up): the holds worker releases the hold.

import type { ServiceDeps } from '../deps/service-deps.js';
import type { HoldRecord } from '../ports/hold-record.js';
import { changeHold, type HoldReference } from './change-hold.js';

/**
 * HOLD-6: marks the hold for release (`CREDIT_DECLINED`) and makes it due now; the worker asks the
 * partner, retrying until it answers. Idempotent: a hold already marked or ended is answered as it is.
 */
export function requestHoldRelease(deps: ServiceDeps, reference: HoldReference): Promise<HoldRecord> {
  return changeHold(deps, reference, (hold) =>
    hold.releaseReason || hold.nextCheckAt === null
      ? hold
      : { ...hold, releaseReason: 'CREDIT_DECLINED', nextCheckAt: deps.clock.now().toISOString() },
  );
}
