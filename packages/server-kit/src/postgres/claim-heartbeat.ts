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

/** Every claim still held, renewed in one statement that returns each one it renewed. */
const RENEW = `UPDATE fin_idempotency_keys AS k SET alive_until = $4
   FROM unnest($1::text[], $2::text[], $3::text[]) AS held(client_id, idem_key, owner)
   WHERE k.client_id = held.client_id AND k.idem_key = held.idem_key AND k.owner = held.owner
     AND k.completed_at IS NULL
   RETURNING k.client_id, k.idem_key, k.owner`;

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

/**
 * One timer for every claim the instance holds: each beat renews them all in one statement, so a request
 * starts and stops its heartbeat with a map entry, and a thousand slow requests cost one round trip a
 * second. A claim leaves when the renewal no longer matches it as this owner's unfinished one (completed,
 * released or taken over) and once its lease has run out, which frees the key whatever the heartbeat says;
 * a failed renewal (the database away) is simply tried again next beat. The timer stops with the last claim.
 */
export function claimHeartbeats(pool: pg.Pool, clock: Clock): ClaimHeartbeats {
  /** The claims held, by `idOf`, with the clock time their lease ends. */
  const held = new Map<string, { ref: IdempotencyKeyRef; leaseEndsAt: number }>();
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
    for (const [id, claim] of held) if (now.getTime() >= claim.leaseEndsAt) held.delete(id);
    if (held.size === 0) return stopAll();
    const claims = [...held.values()].map(({ ref }) => ref);
    renewing = true;
    try {
      const { rows } = await query<{ client_id: string; idem_key: string; owner: string }>(pool, RENEW, [
        claims.map((ref) => ref.clientId),
        claims.map((ref) => ref.key),
        claims.map((ref) => ref.owner),
        aliveUntil(now),
      ]);
      const renewed = new Set(
        rows.map((row) => idOf({ clientId: row.client_id, key: row.idem_key, owner: row.owner })),
      );
      for (const ref of claims) if (!renewed.has(idOf(ref))) held.delete(idOf(ref));
    } catch {
      // The next beat tries again; a holder that cannot reach the database cannot answer either.
    } finally {
      renewing = false;
    }
  };

  return {
    start(claim) {
      held.set(idOf(claim), { ref: claim, leaseEndsAt: clock.now().getTime() + claim.leaseMs });
      if (timer) return;
      timer = setInterval(beat, CLAIM_HEARTBEAT_MS);
      timer.unref?.();
    },
    stop: (ref) => void held.delete(idOf(ref)),
    stopAll,
  };
}
