// Idempotent execution of write POSTs: one run per (client, key), its answer stored with its effect; duplicates wait and replay.
import type { ErrorCode } from '@fin/core';
import type { PlainResponse } from '../http/plain.js';
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import type {
  AuthorizeFindings,
  AuthorizeLookup,
  IdempotencyClaim,
  IdempotencyClaimResult,
  IdempotencyKeyRef,
  KeyAnswer,
  LimitedIdempotencyClaimResult,
} from '../ports/store.js';
import type { ServiceDeps } from '../service/deps.js';
import { newId } from '../use-cases/ids.js';

export type IdempotentOutcome =
  | { kind: 'ran'; response: PlainResponse }
  /** The stored answer of the first request, to be replayed. */
  | { kind: 'replayed'; response: PlainResponse }
  | { kind: 'conflict' }
  | { kind: 'in_progress' }
  /** The write's rate-limit hit was refused: nothing was claimed nor run. */
  | { kind: 'rate_limited'; decision: RateLimitDecision };

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

export function isStorable(response: PlainResponse): boolean {
  if (response.status >= 500 || response.status === 429) return false;
  const body = response.body as { error?: { code?: unknown } | null } | null;
  const code = body?.error?.code;
  return typeof code !== 'string' || !NOT_STORED.has(code);
}

/** What a running write is given: the answer its committing store write carries (the atomic phase). */
export interface OwnedKey {
  /** The key's answer for `response`, for the store write that makes it true; `undefined` if not stored. */
  answer(response: PlainResponse): KeyAnswer | undefined;
  /** The run's `lookup`, answered by the store with the claim (one round trip less per read). */
  found?: AuthorizeFindings;
}

export interface Executed {
  response: PlainResponse;
  /** `response` was committed with the write's effect (`OwnedKey.answer`): nothing left to store. */
  answered: boolean;
}

interface InFlight {
  fingerprint: string;
  done: Promise<PlainResponse | undefined>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A release the store refused (it was unavailable) is tried again this often, until the lease ends. */
const RELEASE_RETRY_MS = 250;

/**
 * Runs `execute` at most once per (clientId, key) across every instance sharing the store. In this
 * instance a duplicate awaits the running request directly; across instances it polls the store
 * until the answer is stored or `idempotencyWaitMs` (or the request's deadline) runs out. A run that
 * fails before committing releases its key at once, and keeps trying while the store is unavailable,
 * so the client's retry runs instead of meeting 409 `idempotency_key_in_progress` until the lease ends.
 */
export function createIdempotency(deps: ServiceDeps) {
  const inFlight = new Map<string, InFlight>();
  const { idempotencyRetentionMs, idempotencyLeaseMs, idempotencyWaitMs } = deps.settings.limits;
  const { store, rateLimiter } = deps;
  /** Claims this instance failed to release, by local key: retried in the background and before a reclaim. */
  const unreleased = new Map<string, IdempotencyKeyRef>();

  async function release(local: string, ref: IdempotencyKeyRef): Promise<void> {
    try {
      await store.releaseIdempotencyKey(ref);
      if (unreleased.get(local) === ref) unreleased.delete(local);
    } catch {
      if (unreleased.has(local) && unreleased.get(local) !== ref) return;
      const first = !unreleased.has(local);
      unreleased.set(local, ref);
      if (first) retryRelease(local, ref, Math.ceil(idempotencyLeaseMs / RELEASE_RETRY_MS));
    }
  }

  /** Tries again every RELEASE_RETRY_MS, `attempts` times: by then the lease has freed the key anyway. */
  function retryRelease(local: string, ref: IdempotencyKeyRef, attempts: number): void {
    if (attempts <= 0) {
      unreleased.delete(local);
      return;
    }
    setTimeout(async () => {
      if (unreleased.get(local) !== ref) return;
      try {
        await store.releaseIdempotencyKey(ref);
        unreleased.delete(local);
      } catch {
        retryRelease(local, ref, attempts - 1);
      }
    }, RELEASE_RETRY_MS).unref?.();
  }

  /** Counts `hit` and, when allowed, claims: in one store step when the store is also the limiter. */
  async function claimCounting(
    hit: RateLimitHit,
    claim: IdempotencyClaim,
    lookup: AuthorizeLookup | undefined,
  ): Promise<LimitedIdempotencyClaimResult> {
    if (store.claimIdempotencyKeyWithinLimit && rateLimiter === store) {
      return store.claimIdempotencyKeyWithinLimit({ hit, claim, ...(lookup ? { lookup } : {}) });
    }
    const limit = await rateLimiter.consumeRateLimit(hit);
    return limit.allowed ? { limit, claim: await store.claimIdempotencyKey(claim) } : { limit };
  }

  /**
   * `hit`, the request's rate-limit hit, is counted once: with the first claim, or alone before waiting
   * on a duplicate running here. A refused hit ends the run as `rate_limited`, having claimed nothing.
   */
  async function run(
    clientId: string,
    key: string,
    fingerprint: string,
    execute: (key: OwnedKey) => Promise<Executed>,
    hit?: RateLimitHit,
    maxWaitMs = Number.POSITIVE_INFINITY,
    lookup?: AuthorizeLookup,
  ): Promise<IdempotentOutcome> {
    const waitBudgetMs = Math.min(idempotencyWaitMs, maxWaitMs);
    const local = [clientId, key].join('\u0000');
    // The wait is a budget of pauses, not a clock reading: rules read the injected clock, and a test
    // clock standing still must not keep a duplicate waiting forever.
    let waitedMs = 0;
    let uncounted = hit;
    for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
      const running = inFlight.get(local);
      if (running && uncounted) {
        const limit = await rateLimiter.consumeRateLimit(uncounted);
        uncounted = undefined;
        if (!limit.allowed) return { kind: 'rate_limited', decision: limit };
        continue;
      }
      if (running) {
        if (running.fingerprint !== fingerprint) return { kind: 'conflict' };
        const response = await running.done;
        if (response) return { kind: 'replayed', response };
        continue;
      }
      const stuck = unreleased.get(local);
      if (stuck) await release(local, stuck);
      const owner = newId('claim_');
      let finish!: (response: PlainResponse | undefined) => void;
      const done = new Promise<PlainResponse | undefined>((resolve) => {
        finish = resolve;
      });
      inFlight.set(local, { fingerprint, done });
      let stored: PlainResponse | undefined;
      try {
        const claimInput: IdempotencyClaim = {
          clientId,
          key,
          owner,
          fingerprint,
          now: deps.clock.now(),
          retentionMs: idempotencyRetentionMs,
          leaseMs: idempotencyLeaseMs,
        };
        let claim: IdempotencyClaimResult;
        let found: AuthorizeFindings | undefined;
        if (uncounted) {
          const counted = await claimCounting(uncounted, claimInput, lookup);
          uncounted = undefined;
          if (!counted.claim) return { kind: 'rate_limited', decision: counted.limit };
          claim = counted.claim;
          found = counted.found;
        } else {
          claim = await store.claimIdempotencyKey(claimInput);
        }
        if (claim.outcome === 'conflict') return { kind: 'conflict' };
        if (claim.outcome === 'completed') {
          stored = claim.response;
          return { kind: 'replayed', response: claim.response };
        }
        if (claim.outcome === 'claimed') {
          const response = await executeOwned(local, { clientId, key, owner }, execute, found);
          if (isStorable(response)) stored = response;
          return { kind: 'ran', response };
        }
      } finally {
        inFlight.delete(local);
        finish(stored);
      }
      // Running in another instance: poll until its answer is stored.
      if (waitedMs + pause > waitBudgetMs) return { kind: 'in_progress' };
      waitedMs += pause;
      await sleep(pause);
    }
  }

  /**
   * Runs the owner's work. Its answer is stored with its effect when a store write carried it;
   * otherwise (a refusal, a decline: no effect) it is stored now. Work that fails, or whose answer is
   * not stored (5xx, 429, validation), releases the key.
   */
  async function executeOwned(
    local: string,
    ref: IdempotencyKeyRef,
    execute: (key: OwnedKey) => Promise<Executed>,
    found: AuthorizeFindings | undefined,
  ): Promise<PlainResponse> {
    let executed: Executed;
    try {
      executed = await execute({
        answer: (response) =>
          isStorable(response) ? { ...ref, response, now: deps.clock.now() } : undefined,
        ...(found ? { found } : {}),
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
      await store.completeIdempotencyKey({ ...ref, response, now: deps.clock.now() });
    } catch (error) {
      // Not stored: the retry runs again rather than meet a claim nobody will complete.
      await release(local, ref);
      throw error;
    }
    return response;
  }

  return { run };
}
