// What the service keeps of a stock hold it made at a partner POS (issue 30): the link to its proposal and the worker's schedule.
import { schemas } from '@fin/core';
import * as z from 'zod';

/** Why the service asks the partner to release a hold (HOLD-6). */
export const holdReleaseReason = z.enum([
  'CREDIT_DECLINED',
  'AUTHORIZATION_EXPIRED',
  'CANCELLATION_VERIFIED',
]);
export type HoldReleaseReason = z.infer<typeof holdReleaseReason>;

/**
 * One hold the service made (`service.holds.place`). `state` is the partner's state as last seen; the
 * holds worker looks at it again at `nextCheckAt`, null once the hold ended (`RELEASED`, `EXPIRED`,
 * `COMMITTED`). Keyed by (`partnerId`, `reservationId`): reservation ids are the partner's.
 */
export const holdRecord = z.object({
  partnerId: z.string().min(1),
  reservationId: schemas.shortId,
  storeId: schemas.shortId,
  imei: schemas.imei,
  /** The proposal `service.proposals.approve({ hold })` linked it to; null until then (HOLD-3). */
  proposalId: z.string().min(1).nullable(),
  state: schemas.reservationState,
  /** When the partner lets it lapse, as last seen. */
  expiresAt: schemas.utcDateTime,
  /** Set once the service wants it released; the worker releases it, retrying until the partner answers. */
  releaseReason: holdReleaseReason.nullable(),
  /** The authorization whose `expiresAt` plus the confirmation grace it was last extended to (HOLD-5). */
  extendedFor: z.string().min(1).nullable(),
  /** Partner calls that failed in a row (the next waits longer); 0 after an answer. */
  attempts: z.number().int().min(0),
  nextCheckAt: schemas.utcDateTime.nullable(),
  /** What the last look settled or why it failed, for operators (no CPF, no IMEI). */
  lastOutcome: z.string().optional(),
  /** Compare-and-set: every successful `updateHold` adds one. */
  version: z.number().int().min(1),
  createdAt: schemas.utcDateTime,
  updatedAt: schemas.utcDateTime,
});
export type HoldRecord = z.infer<typeof holdRecord>;
