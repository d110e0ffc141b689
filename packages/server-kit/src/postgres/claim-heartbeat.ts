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

/**
 * How long one renewal may take before it is dropped (its connection with it) and the next beat sends
 * again: two beats, so a hung connection still leaves a beat's time to renew before the liveness bound.
 */
const RENEWAL_TIMEOUT_MS = 2 * CLAIM_HEARTBEAT_MS;

/**
 * Renews, in one statement, every listed claim still this owner's unfinished one, skipping a row another
 * session holds locked (the request completing it, a retry checking it): the renewal never waits, so one
 * busy row cannot hold back the others. Returns the ordinals of the claims still held, renewed or skipped.
 */
const RENEW = `WITH wanted AS (
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS w(client_id, idem_key, owner, i)
   ), free AS (
     SELECT k.client_id, k.idem_key FROM fin_idempotency_keys AS k
       JOIN wanted AS w ON k.client_id = w.client_id AND k.idem_key = w.idem_key AND k.owner = w.owner
      WHERE k.completed_at IS NULL
      ORDER BY k.client_id, k.idem_key
        FOR UPDATE OF k SKIP LOCKED
   ), renewed AS (
     UPDATE fin_idempotency_keys AS k SET alive_until = $4
       FROM free WHERE k.client_id = free.client_id AND k.idem_key = free.idem_key
   )
   SELECT w.i FROM wanted AS w
     JOIN fin_idempotency_keys AS k ON k.client_id = w.client_id AND k.idem_key = w.idem_key AND k.owner = w.owner
    WHERE k.completed_at IS NULL`;

export interface ClaimHeartbeats {
  /** Starts renewing a claim this instance just won. */
  start(claim: WriteClaim): void;
  /** Stops renewing (the claim was completed or released). */
  stop(ref: IdempotencyKeyRef): void;
  /** Stops every heartbeat (the store closes). */
  stopAll(): void;
}

/** A claim's identity; PostgreSQL text never holds a NUL, so the join is one to one. */
const idOf = (ref: IdempotencyKeyRef) => [ref.clientId, ref.key, ref.owner].join('\u0000');

interface HeldClaim {
  readonly id: string;
  readonly ref: IdempotencyKeyRef;
  /** Clock time when its lease ends. */
  readonly leaseEndsAt: number;
}

/**
 * One timer for every claim the instance holds: each beat renews them all in one statement, so a request
 * starts and stops its heartbeat with a map entry, and a thousand slow requests cost one round trip a
 * second. A claim leaves when the renewal finds it no longer this owner's unfinished one (completed,
 * released or taken over) and once its lease has run out, which frees the key whatever the heartbeat says;
 * a failed or timed-out renewal (the database away) is simply tried again next beat. The timer stops with
 * the last claim.
 */
export function claimHeartbeats(pool: pg.Pool, clock: Clock): ClaimHeartbeats {
  const held = new Map<string, HeldClaim>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let renewing = false;

  const stopAll = () => {
    held.clear();
    clearInterval(timer);
    timer = undefined;
  };

  const beat = async () => {
    if (renewing) return;
    const now = clock.now();
    for (const claim of held.values()) if (now.getTime() >= claim.leaseEndsAt) held.delete(claim.id);
    if (held.size === 0) return stopAll();
    const batch = [...held.values()];
    renewing = true;
    try {
      const values = [
        batch.map(({ ref }) => ref.clientId),
        batch.map(({ ref }) => ref.key),
        batch.map(({ ref }) => ref.owner),
        aliveUntil(now),
      ];
      const { rows } = await query<{ i: number }>(pool, RENEW, values, RENEWAL_TIMEOUT_MS);
      const stillHeld = new Set(rows.map((row) => row.i - 1));
      // Only the entry this renewal read: one started again since under the same id is another claim.
      batch.forEach((claim, index) => {
        if (!stillHeld.has(index) && held.get(claim.id) === claim) held.delete(claim.id);
      });
    } catch {
      // The next beat tries again; a holder that cannot reach the database cannot answer either.
    } finally {
      renewing = false;
    }
  };

  return {
    start(claim) {
      const id = idOf(claim);
      held.set(id, { id, ref: claim, leaseEndsAt: clock.now().getTime() + claim.leaseMs });
      if (timer) return;
      timer = setInterval(beat, CLAIM_HEARTBEAT_MS);
      timer.unref?.();
    },
    stop: (ref) => void held.delete(idOf(ref)),
    stopAll,
  };
}
