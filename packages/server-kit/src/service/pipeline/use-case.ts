// Stage: the endpoint's use case, its result answered in the envelope (the last stage: it calls no next).

import type { ServiceDeps } from '../../deps/service-deps.js';
import { type AnswerContext, failure, success } from '../../http/envelope.js';
import type { PlainResponse } from '../../http/plain.js';
import type { Seal, UseCaseResult } from '../../use-cases/result.js';
import type { ParsedUseCase } from '../use-case-table.js';
import { fromStage, type Stage } from './stage.js';

/** `Retry-After` of every 503 `service_unavailable`: the clients retry with the same key after it. */
export const UNAVAILABLE_HEADERS = { 'retry-after': '1' };

/** The envelope of a use case's result (spec section 2). */
export function envelope(ctx: AnswerContext, result: UseCaseResult): PlainResponse {
  if (result.ok) return success(ctx, result.data, result.message);
  return failure(ctx, result.code, {
    details: result.details,
    ...(result.code === 'service_unavailable' ? { headers: UNAVAILABLE_HEADERS } : {}),
  });
}

export const runUseCase =
  (deps: ServiceDeps, useCase: ParsedUseCase): Stage =>
  async (ctx) => {
    const now = deps.clock.now();
    const answer = { ...ctx.answer, now };
    const owned = ctx.owned;
    // A write's answer is built before the write that makes it true, which stores it (the atomic phase).
    let sealed: PlainResponse | undefined;
    const seal: Seal | undefined =
      owned &&
      ((result) => {
        sealed = envelope(answer, result);
        return owned.answer(sealed);
      });
    const result = await useCase.run(deps, {
      client: fromStage(ctx, 'client'),
      body: ctx.body?.parsed,
      params: ctx.params,
      correlationId: ctx.trace.correlationId,
      now,
      seal,
      prefetched: owned?.prefetched,
    });
    ctx.answered = result.answered === true;
    // Committed with the write: the very answer the key replays, built once (the store kept its own copy).
    return ctx.answered && sealed ? sealed : envelope(answer, result);
  };
