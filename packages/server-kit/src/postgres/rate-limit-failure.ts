// When the limiter's own statement fails (its table or function, not the whole database): which way it fails, logged at error and counted.
import type { Logger } from '@fin/core';
import { createInstrumentation } from '@fin/core/transport';
import type { RateLimitDecision, RateLimitHit } from '../ports/rate-limiter.js';
import { sdkInfo } from '../telemetry/sdk-info.js';
import { sqlState } from './sql.js';

export type RateLimitErrorPolicy = 'allow' | 'deny';

/** The token endpoint's failure budgets (`token-fail:*`): the brute-force guard on client secrets. */
const FAILURE_BUDGET = 'token-fail:';

/**
 * The decision a failing limiter gives (decision RDY-4): `setting` when the host chose one, for every limit;
 * unset, the failure budgets fail closed (`deny`, 429 + `Retry-After: 1`) and the other limits open (`allow`),
 * since a secret guessed while the guard is off cannot be taken back, and a sale refused for a broken counter
 * can. Each failure is logged at error (`postgres.rate_limit_failed`) and counted (`fin.rate_limiter.errors`).
 */
export function rateLimitFailure(setting: RateLimitErrorPolicy | undefined, logger: Logger | undefined) {
  const errors = createInstrumentation(sdkInfo).counter({
    name: 'fin.rate_limiter.errors',
    description:
      'Rate-limit checks whose counter could not be written, by rate class and the way they failed.',
    unit: '{check}',
  });
  return (hit: RateLimitHit, error: unknown): RateLimitDecision => {
    const policy = setting ?? (hit.key.startsWith(FAILURE_BUDGET) ? 'deny' : 'allow');
    const rateClass = hit.key.slice(0, Math.max(0, hit.key.indexOf(':'))) || hit.key;
    logger?.error?.({
      event: 'postgres.rate_limit_failed',
      key: hit.key,
      code: sqlState(error),
      onRateLimitError: policy,
    });
    errors(1, { 'fin.rate_class': rateClass, 'fin.rate_limit.on_error': policy });
    return policy === 'allow'
      ? { allowed: true, remaining: 0, resetAt: new Date(hit.now.getTime() + hit.windowMs) }
      : { allowed: false, remaining: 0, resetAt: new Date(hit.now.getTime() + 1000) };
  };
}
