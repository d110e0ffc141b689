// The heartbeat of the idempotency claims this instance holds: while a request runs, its claim's `alive_until` moves forward, so only a dead holder's claim frees early.
import type { Clock } from '@fin/core';
import type pg from 'pg';
import type { IdempotencyKeyRef, WriteClaim } from '../ports/store.js';
import { query } from './sql.js';

/**
 * A holder not heard from for this long is taken for dead and its unfinished claim may be taken over
 * (DESIGN 20, docs/spec-decisions.md SF-1): with the retry's own wait, a killed instance's key settles
 * within 5 s of its retry.
 */
export const CLAIM_LIVENESS_MS = 4_000;
/** How often a live holder renews: three beats may be missed (a busy event loop, a slow statement) before the bound. */
export const CLAIM_HEARTBEAT_MS = 1_000;

/** `alive_until` for a claim made or renewed at `now`. */
export const aliveUntil = (now: Date) => new Date(now.getTime() + CLAIM_LIVENESS_MS);

const RENEW = `UPDATE fin_idempotency_keys SET alive_until = $4
   WHERE client_id = $1 AND idem_key = $2 AND owner = $3 AND completed_at IS NULL
   RETURNING 1`;

export interface ClaimHeartbeats {
  /** Starts renewing a claim this instance just won. */
  start(claim: WriteClaim): void;
  /** Stops renewing (the claim was completed or released). */
  stop(ref: IdempotencyKeyRef): void;
  /** Stops every heartbeat (the store closes). */
  stopAll(): void;
}

const idOf = (ref: IdempotencyKeyRef) => JSON.stringify([ref.clientId, ref.key, ref.owner]);

/**
 * A heartbeat ends by itself when its claim is no longer this owner's unfinished one (completed, released
 * or taken over: the renewal matches no row) and once the claim's lease has run out, which frees the key
 * whatever the heartbeat says. A failed renewal (the database away) is simply tried again next beat.
 */
export function claimHeartbeats(pool: pg.Pool, clock: Clock): ClaimHeartbeats {
  const beating = new Map<string, ReturnType<typeof setInterval>>();
  const stop = (ref: IdempotencyKeyRef) => {
    const id = idOf(ref);
    clearInterval(beating.get(id));
    beating.delete(id);
  };
  return {
    start(claim) {
      stop(claim);
      const ends = clock.now().getTime() + claim.leaseMs;
      let renewing = false;
      const timer = setInterval(async () => {
        const now = clock.now();
        if (now.getTime() >= ends) return stop(claim);
        if (renewing) return;
        renewing = true;
        try {
          const renewed = await query(pool, RENEW, [claim.clientId, claim.key, claim.owner, aliveUntil(now)]);
          if (renewed.rowCount !== 1) stop(claim);
        } catch {
          // The next beat tries again; a holder that cannot reach the database cannot answer either.
        } finally {
          renewing = false;
        }
      }, CLAIM_HEARTBEAT_MS);
      timer.unref?.();
      beating.set(idOf(claim), timer);
    },
    stop,
    stopAll() {
      for (const timer of beating.values()) clearInterval(timer);
      beating.clear();
    },
  };
}
