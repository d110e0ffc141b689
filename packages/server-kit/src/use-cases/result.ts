// What a use case answers: payload and seller-facing message, or a catalog error code with details.
import type { ErrorCode, ErrorDetail } from '@fin/core';
import type { KeyAnswer } from '../ports/store.js';

export type UseCaseResult = (
  | { ok: true; data: unknown; message: string }
  | { ok: false; code: ErrorCode; details?: ErrorDetail[] }
) & {
  /** The idempotency key's answer was committed with this result's write (see `Seal`). */
  answered?: boolean;
};

export const done = (data: unknown, message: string): UseCaseResult => ({ ok: true, data, message });

export const refused = (code: ErrorCode, details?: ErrorDetail[]): UseCaseResult => ({
  ok: false,
  code,
  details,
});

/**
 * The idempotency key's answer for a result, which the use case hands to the store write that makes the
 * result true, so the effect and its answer commit together (`undefined`: no key, or not stored).
 */
export type Seal = (result: UseCaseResult) => KeyAnswer | undefined;

/** `result` after its write committed carrying `answer`. */
export const committed = (result: UseCaseResult, answer: KeyAnswer | undefined): UseCaseResult =>
  answer ? { ...result, answered: true } : result;

/** The store lost this request's key to a retry (its lease ran out): nothing was written, the client retries. */
export const claimLost = () => refused('service_unavailable');
