// One look of the holds worker at one hold: its planned step sent to the partner POS, and the hold's next record (not yet written).
import { isFinApiError, type StockReservation } from '@fin/core';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { HoldRecord } from '../ports/hold-record.js';
import type { StoreStockHolds } from '../ports/stock-holds.js';
import { type HoldPlanLimits, type HoldStep, planHold } from './hold-plan.js';

/** After a failed call the next waits 30 s, doubling up to 15 minutes (HOLD-8). */
const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 15 * 60_000;
/** A partner silent for a day after the hold's own expiry: it lapsed there, whatever the partner says later. */
const GIVE_UP_AFTER_EXPIRY_MS = 86_400_000;

const retryDelayMs = (attempts: number) => Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempts - 1));

const ended = (hold: HoldRecord, state: HoldRecord['state'], lastOutcome: string): HoldRecord => ({
  ...hold,
  state,
  nextCheckAt: null,
  attempts: 0,
  lastOutcome,
});

/** The hold as the partner answered it: ended (no more looks) or active until its next look. */
function settled(
  hold: HoldRecord,
  answer: StockReservation,
  step: HoldStep,
  now: Date,
  limits: HoldPlanLimits,
) {
  const next: HoldRecord = {
    ...hold,
    state: answer.state,
    expiresAt: answer.expiresAt,
    attempts: 0,
    lastOutcome: `${step.kind}: ${answer.state}`,
    ...(step.kind === 'extend' ? { extendedFor: step.authorizationId } : {}),
    ...(step.kind === 'release' ? { releaseReason: step.reason } : {}),
  };
  if (answer.state !== 'ACTIVE') return { ...next, nextCheckAt: null };
  const until = Math.min(now.getTime() + limits.checkEveryMs, Date.parse(answer.expiresAt));
  return { ...next, nextCheckAt: new Date(Math.max(until, now.getTime() + 1)).toISOString() };
}

/**
 * Sends the step; a 409 on extend (the hold ended meanwhile) is answered by reading its state. Release
 * and extend are idempotent by themselves (SR-6, SR-8), so each call takes the client's own fresh key.
 */
async function send(stock: StoreStockHolds, hold: HoldRecord, step: Exclude<HoldStep, { kind: 'wait' }>) {
  const id = hold.reservationId;
  if (step.kind === 'release') return stock.release(id);
  if (step.kind === 'read') return stock.reservation(id);
  try {
    return await stock.extend(id, { ttlSeconds: step.ttlSeconds });
  } catch (error) {
    if (isFinApiError(error, 'reservation_not_active')) return stock.reservation(id);
    throw error;
  }
}

/** HOLD-8: a failed call is tried again later, ever more slowly, until a day after the hold's own expiry. */
function failed(hold: HoldRecord, error: unknown, now: Date): HoldRecord {
  if (isFinApiError(error, 'reservation_not_found')) return ended(hold, 'EXPIRED', 'unknown at the partner');
  if (now.getTime() >= Date.parse(hold.expiresAt) + GIVE_UP_AFTER_EXPIRY_MS) {
    return ended(hold, 'EXPIRED', 'partner silent a day past the hold expiry');
  }
  const attempts = hold.attempts + 1;
  const code = typeof error === 'string' ? error : isFinApiError(error) ? error.code : 'partner_unreachable';
  return {
    ...hold,
    attempts,
    nextCheckAt: new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
    lastOutcome: `failed: ${code}`,
  };
}

/** The hold's next record after one look (HOLD-4..HOLD-8), and the step it took. */
export async function tendHold(
  deps: ServiceDeps,
  hold: HoldRecord,
  limits: HoldPlanLimits,
): Promise<{ next: HoldRecord; step: HoldStep }> {
  const now = deps.clock.now();
  const uses = hold.proposalId ? await deps.store.listProposalUses(hold.proposalId) : [];
  const step = planHold(hold, uses, now, limits);
  if (step.kind === 'wait') return { step, next: { ...hold, nextCheckAt: step.until.toISOString() } };
  // A partner unregistered or no longer offering holds is treated as silent: the hold lapses there (HOLD-8).
  const partner = deps.clients.get(hold.partnerId)?.stockHolds;
  if (!partner) return { step, next: failed(hold, 'partner_without_stock_holds', now) };
  try {
    const outcome = await send(partner.store(hold.storeId).stock, hold, step);
    if (!outcome.supported) return { step, next: failed(hold, 'partner_without_stock_holds', now) };
    return { step, next: settled(hold, outcome.reservation, step, now, limits) };
  } catch (error) {
    return { step, next: failed(hold, error, now) };
  }
}
