// Idempotent execution of write POSTs: one run per (client, key); duplicates wait for it and replay its answer.
import type { ErrorCode } from '@fin/core';
import type { PlainResponse } from '../http/plain.js';
import type { ServiceDeps } from '../service/deps.js';
import { newId } from '../use-cases/ids.js';

export type IdempotentOutcome =
  | { kind: 'ran'; response: PlainResponse }
  /** The stored answer of the first request, to be replayed. */
  | { kind: 'replayed'; response: PlainResponse }
  | { kind: 'conflict' }
  | { kind: 'in_progress' };

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

  async function run(
    clientId: string,
    key: string,
    fingerprint: string,
    execute: () => Promise<PlainResponse>,
  ): Promise<IdempotentOutcome> {
    const local = `${clientId}\u0000${key}`;
    const deadline = Date.now() + idempotencyWaitMs;
    for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
      const running = inFlight.get(local);
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
        const claim = await deps.store.claimIdempotencyKey({
          clientId,
          key,
          owner,
          fingerprint,
          now: deps.clock.now(),
          retentionMs: idempotencyRetentionMs,
          leaseMs: idempotencyLeaseMs,
        });
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
      if (Date.now() + pause > deadline) return { kind: 'in_progress' };
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
        await deps.store.completeIdempotencyKey({ clientId, key, owner, response, now: deps.clock.now() });
      } else {
        await deps.store.releaseIdempotencyKey({ clientId, key, owner });
      }
    }
    return response;
  }

  return { run };
}
