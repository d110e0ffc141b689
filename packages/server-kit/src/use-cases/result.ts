// What a use case answers (payload and message, or a catalog error), its envelope, and the write it is given to answer with.
import type { ErrorCode, ErrorDetail } from '@fin/core';
import { type AnswerContext, failure, success, UNAVAILABLE_HEADERS } from '../http/envelope.js';
import type { PlainResponse } from '../http/plain.js';
import type { KeyAnswer } from '../ports/store.js';

export type UseCaseResult =
  | { ok: true; data: unknown; message: string }
  | { ok: false; code: ErrorCode; details?: ErrorDetail[] };

export const done = (data: unknown, message: string): UseCaseResult => ({ ok: true, data, message });

export const refused = (code: ErrorCode, details?: ErrorDetail[]): UseCaseResult => ({
  ok: false,
  code,
  details,
});

/** The store lost this request's key to a retry (its lease ran out): nothing was written, the client retries. */
export const claimLost = () => refused('service_unavailable');

/** The envelope of a use case's result (spec section 2). */
export function envelope(ctx: AnswerContext, result: UseCaseResult): PlainResponse {
  if (result.ok) return success(ctx, result.data, result.message);
  return failure(ctx, result.code, {
    details: result.details,
    ...(result.code === 'service_unavailable' ? { headers: UNAVAILABLE_HEADERS } : {}),
  });
}

/**
 * What a write's use case is given once its request owns the Idempotency-Key (`idempotency/write.ts`):
 * the reads it declared, made by the store with the claim, and the commit of its answer.
 */
export interface Write<Found> {
  readonly found: Found;
  /**
   * Makes `result` true: runs `storeWrite` with the key's answer for `result` (`undefined` when that answer
   * is not kept), so the effect and the answer commit in one atomic step (issue 19, W-11). Once a store
   * write succeeds carrying it, `result` is the request's answer whatever the use case returns after.
   */
  commit<T extends { ok: boolean }>(
    result: UseCaseResult,
    storeWrite: (answer: KeyAnswer | undefined) => Promise<T>,
  ): Promise<T>;
}

/** `storeWrite` with the write's answer when there is a write (an API call), alone when not (a worker). */
export const commitWith = <T extends { ok: boolean }>(
  write: Write<unknown> | undefined,
  result: UseCaseResult,
  storeWrite: (answer: KeyAnswer | undefined) => Promise<T>,
): Promise<T> => (write ? write.commit(result, storeWrite) : storeWrite(undefined));
