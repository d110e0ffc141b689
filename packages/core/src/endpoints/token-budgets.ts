// Which per-minute budget a token request spends (DESIGN 16), one rule for the service and the simulated partner.

/** Failed token authentications allowed per minute to one budget, unless the server says otherwise. */
export const TOKEN_FAILURES_PER_MINUTE = 30;

/**
 * The one budget every unregistered `client_id` shares: a flood of random ids adds one rate-limit row (or
 * map entry), never one per id, and cannot touch a registered client's budgets.
 */
export const UNKNOWN_CLIENT_FAILURE_KEY = 'token-fail:unknown-client';

/**
 * The budget key of a token request. Only a request whose credentials are right spends one of the client's
 * issuances (`token:<id>`); a failed one spends its own failure budget (`token-fail:client:<id>` for a
 * registered client, the shared `UNKNOWN_CLIENT_FAILURE_KEY` for any other id), so 60 wrong secrets never
 * lock the right one out, and failures from unknown ids never grow storage.
 */
export function tokenBudgetKey(
  clientId: string,
  outcome: 'authenticated' | 'wrong-secret' | 'unknown-client',
): string {
  if (outcome === 'authenticated') return `token:${clientId}`;
  return outcome === 'wrong-secret' ? `token-fail:client:${clientId}` : UNKNOWN_CLIENT_FAILURE_KEY;
}
