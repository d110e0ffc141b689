// Idempotent execution of write POSTs: one run per (client, key); duplicates wait for it and replay its answer.
import type { ErrorCode } from '@fin/core';
import type { PlainResponse } from '../http/plain.js';
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import type {
  IdempotencyClaim,
  IdempotencyClaimResult,
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

interface InFlight {
  fingerprint: string;
  done: Promise<PlainResponse | undefined>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `execute` at most once per (clientId, key) across every instance sharing the store. In this
 * instance a duplicate awaits the running request directly; across instances it polls the store
 * until the answer is stored or `idempotencyWaitMs` runs out.
 */
export function createIdempotency(deps: ServiceDeps) {
  const inFlight = new Map<string, InFlight>();
  const { idempotencyRetentionMs, idempotencyLeaseMs, idempotencyWaitMs } = deps.settings.limits;
  const { store, rateLimiter } = deps;

  /** Counts `hit` and, when allowed, claims: in one store step when the store is also the limiter. */
  async function claimCounting(
    hit: RateLimitHit,
    claim: IdempotencyClaim,
  ): Promise<LimitedIdempotencyClaimResult> {
    if (store.claimIdempotencyKeyWithinLimit && rateLimiter === store) {
      return store.claimIdempotencyKeyWithinLimit({ hit, claim });
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
    execute: () => Promise<PlainResponse>,
    hit?: RateLimitHit,
  ): Promise<IdempotentOutcome> {
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
        if (uncounted) {
          const counted = await claimCounting(uncounted, claimInput);
          uncounted = undefined;
          if (!counted.claim) return { kind: 'rate_limited', decision: counted.limit };
          claim = counted.claim;
        } else {
          claim = await store.claimIdempotencyKey(claimInput);
        }
        if (claim.outcome === 'conflict') return { kind: 'conflict' };
        if (claim.outcome === 'completed') {
          stored = claim.response;
          return { kind: 'replayed', response: claim.response };
        }
        if (claim.outcome === 'claimed') {
          const response = await executeOwned(clientId, key, owner, execute);
          if (isStorable(response)) stored = response;
          return { kind: 'ran', response };
        }
      } finally {
        inFlight.delete(local);
        finish(stored);
      }
      // Running in another instance: poll until its answer is stored.
      if (waitedMs + pause > idempotencyWaitMs) return { kind: 'in_progress' };
      waitedMs += pause;
      await sleep(pause);
    }
  }

  async function executeOwned(
    clientId: string,
    key: string,
    owner: string,
    execute: () => Promise<PlainResponse>,
  ): Promise<PlainResponse> {
    let response: PlainResponse | undefined;
    try {
      response = await execute();
    } finally {
      if (response && isStorable(response)) {
        await store.completeIdempotencyKey({ clientId, key, owner, response, now: deps.clock.now() });
      } else {
        await store.releaseIdempotencyKey({ clientId, key, owner });
      }
    }
    return response;
  }

  return { run };
}
