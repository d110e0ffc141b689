// The stock-hold steps (issue 30): the service holds the phone after the IMEI check, the POS commits it at invoicing, a declined customer's hold is released.
import { imei } from '@fin/core';
import type { SellerSession } from '@fin/pos-client';
import type { HoldKeeperSummary } from '@fin/server-kit';
import type { HoldRecord } from '@fin/server-kit/store';
import type { Phone } from './cast.js';
import { clockTime } from './format.js';
import type { Stage } from './scene.js';
import type { StepContext } from './timeline.js';

const MINUTE = 60_000;
/** How long a step waits for the holds worker (it runs every 50 ms in the demo). */
const WORKER_WAIT_MS = 5_000;

/** The service's holds worker ran and did `what` to at least one hold. */
async function holdsWorker(stage: Stage, what: keyof HoldKeeperSummary): Promise<void> {
  await stage.workers.next(
    `a hold ${what} by the holds worker`,
    (run) => run.worker === 'stock-holds' && ((run.result as HoldKeeperSummary)[what] ?? 0) > 0,
    WORKER_WAIT_MS,
  );
}

/** The service's record of `hold` once it is in `state`, read every 50 ms for at most WORKER_WAIT_MS. */
async function holdInState(stage: Stage, hold: HoldRecord, state: HoldRecord['state']): Promise<HoldRecord> {
  const until = Date.now() + WORKER_WAIT_MS;
  for (;;) {
    const kept = await stage.financing.service.holds.get(hold);
    if (kept.state === state) return kept;
    if (Date.now() > until) throw new Error(`expected the hold ${state}, got ${kept.state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The seller flow: the POS validates the IMEI, then the service holds the device (the simulated partner offers holds). */
async function holdPhone(stage: Stage, session: SellerSession, phone: Phone): Promise<HoldRecord> {
  const device = await stage.pos.store(session.storeId).imei.validate(phone.imei);
  if (!device.inStock) throw new Error(`the POS says the phone is not on the shelf: ${device.message}`);
  const placed = await stage.financing.service.holds.place({ storeId: session.storeId, imei: phone.imei });
  if (!placed.held) throw new Error('the simulated partner should offer stock holds');
  return placed.hold;
}

export async function deviceHold(
  step: StepContext,
  stage: Stage,
  session: SellerSession,
): Promise<HoldRecord> {
  const hold = await holdPhone(stage, session, stage.cast.phones.first);
  step.report(
    [
      `hold ${hold.reservationId} on IMEI ${imei.mask(hold.imei)}: ${hold.state} until ${clockTime(hold.expiresAt)}`,
      'service.holds.place → POST /v1/stock/reservations (v1.1, optional per partner)',
      'no other till can sell it meanwhile; authorize will never call the POS (spec 1.4)',
    ],
    { reservationId: hold.reservationId, state: hold.state, expiresAt: hold.expiresAt },
  );
  return hold;
}

export async function holdCommitted(step: StepContext, stage: Stage, hold: HoldRecord): Promise<void> {
  const atPartner = await stage.pos.store(hold.storeId).stock.reservation(hold.reservationId);
  if (!atPartner.supported) throw new Error('the simulated partner should offer stock holds');
  // The holds worker looks at a hold within a minute: the demo moves the clock instead of waiting. It may
  // already have read the commit on the run that extended the hold, so the step waits for the state itself.
  stage.clock.advance(MINUTE + 1_000);
  const kept = await holdInState(stage, hold, 'COMMITTED');
  step.report(
    [
      `the POS invoiced the sale: hold ${hold.reservationId} ${atPartner.reservation.state} at the partner`,
      'clock +1 min → holds worker reads it: COMMITTED, nothing left to release',
    ],
    { reservationId: hold.reservationId, state: kept.state },
  );
}

export async function declinedHold(
  step: StepContext,
  stage: Stage,
  session: SellerSession,
): Promise<HoldRecord> {
  const hold = await holdPhone(stage, session, stage.cast.phones.declined);
  step.report([`IMEI ${imei.mask(hold.imei)} checked, hold ${hold.reservationId}: ${hold.state}`], {
    reservationId: hold.reservationId,
    state: hold.state,
  });
  return hold;
}

export async function holdReleased(step: StepContext, stage: Stage, hold: HoldRecord): Promise<void> {
  const watched = holdsWorker(stage, 'released');
  const marked = await stage.financing.service.holds.release(hold);
  await watched;
  const atPartner = await stage.pos.store(hold.storeId).stock.reservation(hold.reservationId);
  if (!atPartner.supported || atPartner.reservation.state !== 'RELEASED') {
    throw new Error('expected the hold RELEASED at the partner');
  }
  step.report(
    [
      `the credit flow declined: service.holds.release (${marked.releaseReason})`,
      `holds worker → POST /v1/stock/reservations/${hold.reservationId}/release: RELEASED`,
      'the phone is back on sale at every till',
    ],
    { reservationId: hold.reservationId, state: atPartner.reservation.state },
  );
}
