// Releasing a claim whose answer is not stored: at once, and again in the background while the store is unavailable.
import type { IdempotencyKeyRef, Store } from '../ports/store.js';

/** A release the store refused (it was unavailable) is tried again this often, until the lease ends. */
const RELEASE_RETRY_MS = 250;

/**
 * A run that fails before committing releases its key at once, and keeps trying while the store is
 * unavailable, so the client's retry runs instead of meeting 409 `idempotency_key_in_progress` until the
 * lease ends. `local` is the key as this instance names it (client and key).
 */
export function createKeyRelease(store: Store, leaseMs: number) {
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
      if (first) retry(local, ref, Math.ceil(leaseMs / RELEASE_RETRY_MS));
    }
  }

  /** Tries again every RELEASE_RETRY_MS, `attempts` times: by then the lease has freed the key anyway. */
  function retry(local: string, ref: IdempotencyKeyRef, attempts: number): void {
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
        retry(local, ref, attempts - 1);
      }
    }, RELEASE_RETRY_MS).unref?.();
  }

  /** Before claiming `local` again: releases a claim of ours still waiting for its release. */
  async function releaseStuck(local: string): Promise<void> {
    const stuck = unreleased.get(local);
    if (stuck) await release(local, stuck);
  }

  return { release, releaseStuck };
}
