// Tokens this instance found lately, kept a few seconds so an API call spares the token lookup's round trip.
import type { TokenRecord } from '../ports/records.js';

/** Default: long enough to serve a POS's burst of calls, short against a row deleted by hand. */
export const DEFAULT_TOKEN_CACHE_MS = 5_000;
/** Entries at most: the oldest goes first (one per token in use, so a few per partner). */
const MAX_ENTRIES = 10_000;

/**
 * A token row never changes once issued (expiry is judged by the caller against its clock), so a found
 * record is as good as a fresh read until the row is deleted: by the purge (a day after expiry, and
 * `clear()` runs with it) or by an operator. Only found tokens are kept: an unknown one is asked again.
 * The time-to-live runs on the process's monotonic clock: it bounds staleness, it is no rule.
 */
/** The store never shares an object with its caller. */
const copy = (token: TokenRecord): TokenRecord => ({ ...token, scopes: [...token.scopes] });

export function tokenCache(ttlMs = DEFAULT_TOKEN_CACHE_MS) {
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 0) {
    throw new TypeError('@fin/server-kit/postgres: tokenCacheMs must be a non-negative integer of ms');
  }
  const entries = new Map<string, { token: TokenRecord; until: number }>();
  return {
    async find(
      tokenHash: string,
      lookup: () => Promise<TokenRecord | undefined>,
    ): Promise<TokenRecord | undefined> {
      const entry = entries.get(tokenHash);
      if (entry && entry.until > performance.now()) return copy(entry.token);
      const token = await lookup();
      entries.delete(tokenHash);
      if (token && ttlMs > 0) {
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
        entries.set(tokenHash, { token: copy(token), until: performance.now() + ttlMs });
      }
      return token;
    },
    clear: () => entries.clear(),
  };
}
