// The bearer of an attempt, and the one replay of a call whose token the server no longer accepts.
import { AbortError as StopRetrying } from 'p-retry';
import { isFinApiError } from '../errors/index.js';
import type { CallContext } from './call-context.js';
import type { TokenManager } from './token-manager.js';
import type { Transport } from './transport.js';

const TOKEN_REPLAY_CODES = new Set(['expired_token', 'invalid_token']);

/** A 401 whose code says the token itself was refused: a fresh token may succeed. */
const refusesToken = (error: unknown): boolean =>
  isFinApiError(error) && error.status === 401 && TOKEN_REPLAY_CODES.has(error.code);

/** The token to send; a failure stops the retry loop, since the token call already retried what it may. */
async function bearer(tokens: TokenManager, context: CallContext): Promise<string> {
  try {
    return await tokens.getToken(context.signal);
  } catch (error) {
    throw new StopRetrying(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Sends one attempt with the cached token. When the server refuses that token (401 `expired_token` or
 * `invalid_token`), drops it and sends again once with a fresh one; once per call, never more.
 */
export async function withTokenReplay<T>(
  transport: Transport,
  context: CallContext,
  tokens: TokenManager,
  send: (token: string) => Promise<T>,
): Promise<T> {
  const token = await bearer(tokens, context);
  try {
    return await send(token);
  } catch (error) {
    if (context.tokenReplayed || !refusesToken(error)) throw error;
    context.tokenReplayed = true;
    tokens.invalidate(token);
    const { method, path } = context.call;
    const code = isFinApiError(error) ? error.code : undefined;
    transport.log('info', {
      event: 'http.token_replay',
      method,
      path,
      code,
      correlationId: context.correlationId,
    });
    context.span.event('fin.token.replay', { 'error.type': code });
    return send(await bearer(tokens, context));
  }
}
