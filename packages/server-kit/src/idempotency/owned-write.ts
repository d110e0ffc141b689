// The run of the request that owns its key: the use case given its Write; its answer committed with its effect, stored after, or the key released.
import type { ErrorCode } from '@fin/core';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { AnswerContext } from '../http/envelope.js';
import type { PlainResponse } from '../http/plain.js';
import type { IdempotencyKeyRef, KeyAnswer } from '../ports/store.js';
import { envelope, type UseCaseResult, type Write } from '../use-cases/result.js';

/** Answers that are not stored, so a corrected retry with the same key runs (DESIGN 9). */
const NOT_STORED: ReadonlySet<string> = new Set<ErrorCode>([
  'validation_error',
  'unsupported_currency',
  'bad_request',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limit_exceeded',
  'idempotency_key_conflict',
  'idempotency_key_in_progress',
]);

/** Which answers a key keeps for replay: not 5xx, 429, nor a refusal a corrected retry should pass. */
export function isStorable(response: PlainResponse): boolean {
  if (response.status >= 500 || response.status === 429) return false;
  const body = response.body as { error?: { code?: unknown } | null } | null;
  const code = body?.error?.code;
  return typeof code !== 'string' || !NOT_STORED.has(code);
}

/** A use case's run, given its write and the moment it runs at. */
export type RunWrite<Found> = (write: Write<Found>, now: Date) => Promise<UseCaseResult>;

/** The key a run owns: how this instance names it (`local`), the store's reference, the answer's request id. */
export interface OwnedKey {
  local: string;
  ref: IdempotencyKeyRef;
  requestId: string | undefined;
}

/**
 * Runs the owner's use case. Its answer is stored with its effect when a store write carried it
 * (`Write.commit`); otherwise (a refusal, a decline: no effect) it is stored now. A run that throws, or
 * whose answer is not stored (5xx, 429, validation), releases the key.
 */
export function createOwnedRun(
  deps: ServiceDeps,
  release: (local: string, ref: IdempotencyKeyRef) => Promise<void>,
) {
  const answerOf = (ref: IdempotencyKeyRef, response: PlainResponse): KeyAnswer | undefined =>
    isStorable(response)
      ? { clientId: ref.clientId, key: ref.key, owner: ref.owner, response, now: deps.clock.now() }
      : undefined;

  return async function runOwned<Found>(
    key: OwnedKey,
    found: Found,
    run: RunWrite<Found>,
  ): Promise<PlainResponse> {
    const { local, ref } = key;
    const now = deps.clock.now();
    const answer: AnswerContext = { requestId: key.requestId, now };
    // The answer a store write committed with its effect: the very answer the key replays, built once.
    let committed: PlainResponse | undefined;
    const write: Write<Found> = {
      found,
      async commit(result, storeWrite) {
        const response = envelope(answer, result);
        const keyAnswer = answerOf(ref, response);
        const written = await storeWrite(keyAnswer);
        if (written.ok && keyAnswer) committed = response;
        return written;
      },
    };
    let result: UseCaseResult;
    try {
      result = await run(write, now);
    } catch (error) {
      await release(local, ref);
      throw error;
    }
    if (committed) return committed;
    const response = envelope(answer, result);
    const keyAnswer = answerOf(ref, response);
    if (!keyAnswer) {
      await release(local, ref);
      return response;
    }
    try {
      await deps.store.completeIdempotencyKey(keyAnswer);
    } catch (error) {
      // Not stored: the retry runs again rather than meet a claim nobody will complete.
      await release(local, ref);
      throw error;
    }
    return response;
  };
}
