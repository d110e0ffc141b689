// Stage: a write runs once per Idempotency-Key; duplicates replay its stored answer, wait, or conflict (DESIGN 9).

import type { ServiceDeps } from '../../deps/service-deps.js';
import { failure } from '../../http/envelope.js';
import { retryAfter } from '../../http/per-minute-limit.js';
import type { PlainResponse } from '../../http/plain.js';
import { requestFingerprint } from '../../idempotency/fingerprint.js';
import type { ClaimOf, createIdempotency } from '../../idempotency/idempotency.js';
import { fromStage, type Stage } from './stage.js';

/** A waiting duplicate gives up this long before its request's deadline, to answer 409 in progress in time. */
const DEADLINE_MARGIN_MS = 250;

export function idempotent(
  deps: ServiceDeps,
  idempotency: ReturnType<typeof createIdempotency>,
  claimOf?: ClaimOf,
): Stage {
  return async (ctx, next) => {
    const client = fromStage(ctx, 'client');
    const body = fromStage(ctx, 'body');
    const deferred = fromStage(ctx, 'hit');
    deferred.counted = true;
    const outcome = await idempotency.run(
      {
        clientId: client.clientId,
        key: fromStage(ctx, 'idempotencyKey'),
        fingerprint: requestFingerprint(ctx.request.method, ctx.request.path, body.raw),
        hit: deferred.hit,
        maxWaitMs: deps.settings.limits.requestDeadlineMs - DEADLINE_MARGIN_MS,
        claimWithinLimit: claimOf?.(deps.store, client, body.parsed, deps.clock.now()),
      },
      async (owned) => {
        ctx.owned = owned;
        const response = await next();
        return { response, answered: ctx.answered === true };
      },
    );
    switch (outcome.kind) {
      case 'rate_limited':
        return failure(ctx.answer, 'rate_limit_exceeded', {
          headers: retryAfter(outcome.decision, ctx.answer.now),
        });
      case 'ran':
        return outcome.response;
      case 'replayed':
        ctx.trace.replayed = true;
        return replay(outcome.response, ctx.answer.requestId);
      case 'conflict':
        return failure(ctx.answer, 'idempotency_key_conflict', {
          details: [{ field: 'header.Idempotency-Key', issue: 'was used for a different request' }],
        });
      case 'in_progress':
        return failure(ctx.answer, 'idempotency_key_in_progress', { headers: { 'retry-after': '1' } });
    }
  };
}

/** The stored answer, echoing this request's id; everything else as first answered. */
function replay(stored: PlainResponse, requestId: string | undefined): PlainResponse {
  const body = stored.body as Record<string, unknown>;
  return {
    status: stored.status,
    headers: { ...stored.headers, 'idempotent-replayed': 'true' },
    body: { ...body, ...(requestId ? { requestId } : {}) } as PlainResponse['body'],
  };
}
