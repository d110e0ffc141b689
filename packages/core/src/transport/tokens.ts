// System tokens (OAuth 2.0 client_credentials): one cache per scope set, one shared refresh, renewal 60 s before expiry.
import { type Clock, systemClock } from '../clock/index.js';
import type { TokenResponse } from '../schemas/index.js';

export interface TokenManagerOptions {
  /** Asks the token endpoint for a new token (the HTTP client binds it to its scopes and pacing). */
  fetchToken: () => Promise<TokenResponse>;
  /** Renew once this little validity remains; the spec asks for at least 60 000 ms. */
  renewMarginMs?: number;
  /** Default the system clock. */
  clock?: Clock;
}

export interface TokenManager {
  /** The cached token, or the one shared refresh every concurrent caller waits on. */
  getToken(signal?: AbortSignal): Promise<string>;
  /** Drops `token` after a 401 `expired_token`/`invalid_token`; a token already replaced is left alone. */
  invalidate(token: string): void;
}

export const TOKEN_RENEW_MARGIN_MS = 60_000;

interface CachedToken {
  value: string;
  renewAt: number;
}

export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const { fetchToken, renewMarginMs = TOKEN_RENEW_MARGIN_MS, clock = systemClock } = options;
  const now = () => clock.now().getTime();
  let cached: CachedToken | undefined;
  let refreshing: Promise<string> | undefined;

  const refresh = (): Promise<string> => {
    // Validity counts from the moment we asked, so network time is never counted as validity.
    const askedAt = now();
    refreshing ??= fetchToken()
      .then((token) => {
        const lifetimeMs = token.expires_in * 1000;
        // A token shorter-lived than twice the margin is kept for half its life, not refreshed per call.
        const marginMs = Math.min(renewMarginMs, lifetimeMs / 2);
        cached = { value: token.access_token, renewAt: askedAt + lifetimeMs - marginMs };
        return token.access_token;
      })
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };

  return {
    getToken(signal) {
      signal?.throwIfAborted();
      if (cached && now() < cached.renewAt) return Promise.resolve(cached.value);
      const shared = refresh();
      if (!signal) return shared;
      // One caller giving up must not cancel the refresh the others wait on.
      return new Promise<string>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        shared.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
      });
    },
    invalidate(token) {
      if (cached?.value === token) cached = undefined;
    },
  };
}

/** Asks the token endpoint for a token of `scope` (a space-separated, sorted scope list; '' for none). */
export type FetchToken = (scope: string) => Promise<TokenResponse>;

/** The token manager of a scope string, made on first use; only the scopes a call asks for are ever requested. */
export type TokenSource = (scope: string) => TokenManager;

export function createTokenSource(clock: Clock, fetchToken: FetchToken): TokenSource {
  const managers = new Map<string, TokenManager>();
  return (scope) => {
    let manager = managers.get(scope);
    if (!manager) {
      manager = createTokenManager({ clock, fetchToken: () => fetchToken(scope) });
      managers.set(scope, manager);
    }
    return manager;
  };
}
