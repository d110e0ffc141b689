// Stage: the per-minute limit of a read, per client (spec section 8); a write counts its hit in `idempotency/write.ts`.
import type { ServiceDeps } from '../../deps/service-deps.js';
import { failure } from '../../http/envelope.js';
import { perMinuteLimit } from '../../http/per-minute-limit.js';
import { fromStage, type Stage } from './stage.js';

/** Every read counts one hit of its class, answered 429 before anything else when over the limit. */
export function readLimit(deps: ServiceDeps): Stage {
  const { readsPerMinute } = deps.settings.limits;
  return async (ctx, next) => {
    const clientId = fromStage(ctx, 'client').clientId;
    const headers = await perMinuteLimit(
      deps.rateLimiter,
      `read:${clientId}`,
      readsPerMinute,
      ctx.answer.now,
    );
    return headers ? failure(ctx.answer, 'rate_limit_exceeded', { headers }) : next();
  };
}
