// The system tokens of one client: a token manager per distinct scope set, made on first use.
import type { TokenResponse } from '../schemas/index.js';
import { createTokenManager, type TokenManager } from './token-manager.js';
import type { Transport } from './transport.js';

/** Asks the token endpoint for a token of `scope` (a space-separated, sorted scope list; '' for none). */
export type FetchToken = (scope: string) => Promise<TokenResponse>;

/** The token manager of a scope string; only the scopes a call asks for are ever requested. */
export type TokenSource = (scope: string) => TokenManager;

export function createTokenSource(transport: Transport, fetchToken: FetchToken): TokenSource {
  const managers = new Map<string, TokenManager>();
  return (scope) => {
    let manager = managers.get(scope);
    if (!manager) {
      manager = createTokenManager({ clock: transport.clock, fetchToken: () => fetchToken(scope) });
      managers.set(scope, manager);
    }
    return manager;
  };
}
