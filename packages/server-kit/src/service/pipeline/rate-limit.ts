// Stage: the per-minute limit of the endpoint's rate class, per client (spec section 8).
import type { endpoints } from '@fin/core';
import type { ServiceDeps } from '../../deps/service-deps.js';
import { failure } from '../../http/envelope.js';
import { perMinuteHit, retryAfter } from '../../http/per-minute-limit.js';
import { fromStage, type Stage } from './stage.js';

/** The rate classes of the API's calls (the token endpoint counts its own, before any bearer exists). */
export type CallRateClass = Exclude<endpoints.RateClass, 'token'>;

/**
 * Every call counts one hit of its class. A read is answered 429 before anything else when over the
 * limit. A write's hit is counted with its idempotency claim (one store step, `idempotent`); a write
 * refused before its claim counts it alone, then is answered 429 if over the limit, else its refusal.
 */
export function rateLimit(deps: ServiceDeps, rate: CallRateClass): Stage {
  const { limits } = deps.settings;
  const perMinute = rate === 'read' ? limits.readsPerMinute : limits.writesPerMinute;
  const limited = async (hit: ReturnType<typeof perMinuteHit>) =>
    retryAfter(await deps.rateLimiter.consumeRateLimit(hit), hit.now);
  return async (ctx, next) => {
    const hit = perMinuteHit(`${rate}:${fromStage(ctx, 'client').clientId}`, perMinute, ctx.answer.now);
    if (rate === 'read') {
      const headers = await limited(hit);
      return headers ? failure(ctx.answer, 'rate_limit_exceeded', { headers }) : next();
    }
    const deferred = { hit, counted: false };
    ctx.hit = deferred;
    const response = await next();
    if (deferred.counted) return response;
    const headers = await limited(hit);
    return headers ? failure(ctx.answer, 'rate_limit_exceeded', { headers }) : response;
  };
}
