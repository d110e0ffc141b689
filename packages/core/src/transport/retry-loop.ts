// The retry loop of a call: p-retry runs the attempts; the policy decides which failures retry and how long to wait.
import pRetry from 'p-retry';
import { isFinApiError } from '../errors/index.js';
import type { CallContext } from './call-context.js';
import { holdAll } from './pacing.js';
import { isRetryable, retryDelayMs } from './retry-policy.js';
import { sleep } from './sleep.js';
import type { Transport } from './transport.js';

/**
 * The wait before a retry, or `undefined` when the failure must reach the caller: not retryable, a
 * `Retry-After` beyond the cap, or a wait that would end past the call's deadline.
 */
function retryWaitMs(transport: Transport, context: CallContext, error: Error, retry: number) {
  if (context.signal.aborted) return undefined;
  const write = context.call.rate === 'write';
  if (!isRetryable(error, { write, idempotencyKey: context.idempotencyKey })) return undefined;
  const retryAfterMs = isFinApiError(error) ? error.retryAfterMs : undefined;
  if (retryAfterMs !== undefined && retryAfterMs > transport.backoff.maxRetryAfterMs) return undefined;
  const delayMs = retryDelayMs(retry, retryAfterMs, transport.backoff, transport.random);
  return transport.clock.now().getTime() + delayMs >= context.deadlineAt ? undefined : delayMs;
}

/**
 * Runs `attempt` until it succeeds or a failure must reach the caller, at most `maxRetries` times more
 * (the call's override, else the client's).
 * p-retry's own delay is a fixed exponential drawn from `Math.random`; ours honours `Retry-After`, uses
 * the injected jitter source and aborts with the call, so p-retry waits 0 and `shouldRetry` waits ours.
 */
export function retryLoop<T>(
  transport: Transport,
  context: CallContext,
  attempt: () => Promise<T>,
): Promise<T> {
  return pRetry(attempt, {
    retries: context.maxRetries,
    minTimeout: 0,
    onFailedAttempt: ({ error }) => {
      // The hold is capped like the wait: a server asking for an hour must not freeze the client.
      if (isFinApiError(error) && error.status === 429 && error.retryAfterMs !== undefined) {
        const holdMs = Math.min(error.retryAfterMs, transport.backoff.maxRetryAfterMs);
        holdAll(transport.pacers, transport.clock.now().getTime() + holdMs);
      }
    },
    shouldRetry: async ({ error, retriesConsumed }) => {
      const delayMs = retryWaitMs(transport, context, error, retriesConsumed + 1);
      if (delayMs === undefined) return false;
      const { method, path } = context.call;
      transport.log('info', {
        event: 'http.retry',
        method,
        path,
        attempt: context.attempts,
        delayMs,
        error: error.name,
        correlationId: context.correlationId,
      });
      context.span.event('http.retry', {
        'fin.retry.delay_ms': delayMs,
        'fin.retry.after': isFinApiError(error) && error.retryAfterMs !== undefined,
        'error.type': isFinApiError(error) ? error.code : error.name,
      });
      await sleep(delayMs, context.signal);
      return true;
    },
  });
}
