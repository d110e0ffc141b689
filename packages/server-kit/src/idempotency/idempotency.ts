// Idempotent execution of writes: one run per (client, key), its answer stored with its effect; duplicates wait and replay.

import type { RegisteredClient } from '../deps/clients.js';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { PlainResponse } from '../http/plain.js';
import { newId } from '../ports/ids.js';
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import type {
  IdempotencyClaim,
  IdempotencyClaimResult,
  LimitedIdempotencyClaim,
  LimitedIdempotencyClaimResult,
  Store,
} from '../ports/store.js';
import { createKeyRelease } from './key-release.js';
import { createOwnedRun, type Execute } from './owned-run.js';
import { isStorable } from './storable.js';

export type IdempotentOutcome =
  | { kind: 'ran'; response: PlainResponse }
  /** The stored answer of the first request, to be replayed. */
  | { kind: 'replayed'; response: PlainResponse }
  | { kind: 'conflict' }
  | { kind: 'in_progress' }
  /** The write's rate-limit hit was refused: nothing was claimed nor run. */
  | { kind: 'rate_limited'; decision: RateLimitDecision };

/**
 * The store step that counts a hit and, when allowed, claims (the store's `claimIdempotencyKeyWithinLimit`
 * by default). A use case may bring its own, which also reads for it: its `prefetched` reaches the run.
 */
export type ClaimWithinLimit = (
  input: LimitedIdempotencyClaim,
) => Promise<LimitedIdempotencyClaimResult & { prefetched?: unknown }>;

/** The use case's own claiming step, if it has one (authorize's, which reads with the claim). */
export type ClaimOf = (
  store: Store,
  client: RegisteredClient,
  body: unknown,
  now: Date,
) => ClaimWithinLimit | undefined;

export interface IdempotentRequest {
  clientId: string;
  /** The `Idempotency-Key`, lower-cased. */
  key: string;
  fingerprint: string;
  /** The write's rate-limit hit, counted once: with the first claim, or alone before waiting on a duplicate. */
  hit: RateLimitHit;
  /** A duplicate waits for the first request's answer at most this long (and `idempotencyWaitMs`). */
  maxWaitMs: number;
  claimWithinLimit?: ClaimWithinLimit;
}

interface InFlight {
  fingerprint: string;
  done: Promise<PlainResponse | undefined>;
}

/** A claim's answer, with what the claiming step read for the run; or the refused rate-limit hit. */
type Claimed = { claim: IdempotencyClaimResult; prefetched?: unknown } | { refused: RateLimitDecision };

/** The request's hit while it is not counted yet. */
interface Pending {
  hit: RateLimitHit | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `execute` at most once per (clientId, key) across every instance sharing the store. In this
 * instance a duplicate awaits the running request directly; across instances it polls the store
 * until the answer is stored or `idempotencyWaitMs` (or the request's deadline) runs out.
 */
export function createIdempotency(deps: ServiceDeps) {
  const inFlight = new Map<string, InFlight>();
  const { idempotencyRetentionMs, idempotencyLeaseMs, idempotencyWaitMs } = deps.settings.limits;
  const { store, rateLimiter } = deps;
  const keys = createKeyRelease(store, idempotencyLeaseMs);
  const runOwned = createOwnedRun(deps, keys.release);

  /** Counts the pending hit (if any) and claims: in one store step when the store is also the limiter. */
  async function claim(
    request: IdempotentRequest,
    pending: Pending,
    claimInput: IdempotencyClaim,
  ): Promise<Claimed> {
    const hit = pending.hit;
    pending.hit = undefined;
    if (!hit) return { claim: await store.claimIdempotencyKey(claimInput) };
    const combined =
      rateLimiter === store
        ? (request.claimWithinLimit ?? store.claimIdempotencyKeyWithinLimit?.bind(store))
        : undefined;
    if (combined) {
      const { limit, ...claimed } = await combined({ hit, claim: claimInput });
      return claimed.claim ? { ...claimed, claim: claimed.claim } : { refused: limit };
    }
    const limit = await rateLimiter.consumeRateLimit(hit);
    return limit.allowed ? { claim: await store.claimIdempotencyKey(claimInput) } : { refused: limit };
  }

  /** A duplicate running in this instance: count the hit alone first, then replay its answer or try again. */
  async function join(running: InFlight, pending: Pending, fingerprint: string) {
    if (pending.hit) {
      const limit = await rateLimiter.consumeRateLimit(pending.hit);
      pending.hit = undefined;
      return limit.allowed ? undefined : ({ kind: 'rate_limited', decision: limit } as const);
    }
    if (running.fingerprint !== fingerprint) return { kind: 'conflict' } as const;
    const response = await running.done;
    return response ? ({ kind: 'replayed', response } as const) : undefined;
  }

  /** Claims the key and runs it when granted; `undefined` when another instance holds it (poll again). */
  async function own(
    request: IdempotentRequest,
    local: string,
    pending: Pending,
    execute: Execute,
  ): Promise<IdempotentOutcome | undefined> {
    await keys.releaseStuck(local);
    const ref = { clientId: request.clientId, key: request.key, owner: newId('claim_') };
    let finish!: (response: PlainResponse | undefined) => void;
    const done = new Promise<PlainResponse | undefined>((resolve) => {
      finish = resolve;
    });
    inFlight.set(local, { fingerprint: request.fingerprint, done });
    let stored: PlainResponse | undefined;
    try {
      const claimed = await claim(request, pending, {
        ...ref,
        fingerprint: request.fingerprint,
        now: deps.clock.now(),
        retentionMs: idempotencyRetentionMs,
        leaseMs: idempotencyLeaseMs,
      });
      if ('refused' in claimed) return { kind: 'rate_limited', decision: claimed.refused };
      const outcome = claimed.claim;
      if (outcome.outcome === 'conflict') return { kind: 'conflict' };
      if (outcome.outcome === 'in_progress') return undefined;
      stored = outcome.outcome === 'completed' ? outcome.response : undefined;
      if (stored) return { kind: 'replayed', response: stored };
      const response = await runOwned(local, ref, execute, claimed.prefetched);
      if (isStorable(response)) stored = response;
      return { kind: 'ran', response };
    } finally {
      inFlight.delete(local);
      finish(stored);
    }
  }

  async function run(request: IdempotentRequest, execute: Execute): Promise<IdempotentOutcome> {
    const waitBudgetMs = Math.min(idempotencyWaitMs, request.maxWaitMs);
    const local = [request.clientId, request.key].join('\u0000');
    const pending: Pending = { hit: request.hit };
    // The wait is a budget of pauses, not a clock reading: rules read the injected clock, and a test
    // clock standing still must not keep a duplicate waiting forever.
    let waitedMs = 0;
    for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
      const running = inFlight.get(local);
      const outcome = running
        ? await join(running, pending, request.fingerprint)
        : await own(request, local, pending, execute);
      if (outcome) return outcome;
      if (running) continue;
      // Running in another instance: poll until its answer is stored.
      if (waitedMs + pause > waitBudgetMs) return { kind: 'in_progress' };
      waitedMs += pause;
      await sleep(pause);
    }
  }

  return { run };
}
