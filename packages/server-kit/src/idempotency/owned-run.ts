// The run of the request that owns a key: its answer stored with its effect, or stored now, or the key released.

import type { ServiceDeps } from '../deps/service-deps.js';
import type { PlainResponse } from '../http/plain.js';
import type { IdempotencyKeyRef, KeyAnswer } from '../ports/store.js';
import { isStorable } from './storable.js';

/** What a running write is given: the answer its committing store write carries (the atomic phase). */
export interface OwnedKey {
  /** The key's answer for `response`, for the store write that makes it true; `undefined` if not stored. */
  answer(response: PlainResponse): KeyAnswer | undefined;
  /** What the claiming step read for the run besides the claim (see `ClaimWithinLimit`), if anything. */
  prefetched?: unknown;
}

export interface Executed {
  response: PlainResponse;
  /** `response` was committed with the write's effect (`OwnedKey.answer`): nothing left to store. */
  answered: boolean;
}

export type Execute = (key: OwnedKey) => Promise<Executed>;

/**
 * Runs the owner's work. Its answer is stored with its effect when a store write carried it; otherwise
 * (a refusal, a decline: no effect) it is stored now. Work that fails, or whose answer is not stored
 * (5xx, 429, validation), releases the key.
 */
export function createOwnedRun(
  deps: ServiceDeps,
  release: (local: string, ref: IdempotencyKeyRef) => Promise<void>,
) {
  return async function runOwned(
    local: string,
    ref: IdempotencyKeyRef,
    execute: Execute,
    prefetched: unknown,
  ): Promise<PlainResponse> {
    let executed: Executed;
    try {
      executed = await execute({
        answer: (response) =>
          isStorable(response) ? { ...ref, response, now: deps.clock.now() } : undefined,
        ...(prefetched !== undefined ? { prefetched } : {}),
      });
    } catch (error) {
      await release(local, ref);
      throw error;
    }
    const { response, answered } = executed;
    if (answered) return response;
    if (!isStorable(response)) {
      await release(local, ref);
      return response;
    }
    try {
      await deps.store.completeIdempotencyKey({ ...ref, response, now: deps.clock.now() });
    } catch (error) {
      // Not stored: the retry runs again rather than meet a claim nobody will complete.
      await release(local, ref);
      throw error;
    }
    return response;
  };
}
