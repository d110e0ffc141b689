// Stage: the endpoint's use case (the last stage: it calls no next); a write's runs once per key (`idempotency/write.ts`).
import type { z } from 'zod';
import type { ServiceDeps } from '../../deps/service-deps.js';
import type { createWrites } from '../../idempotency/write.js';
import { envelope, type Write } from '../../use-cases/result.js';
import type { ParsedUseCase } from '../use-case-table.js';
import { bodyReader } from './parse-body.js';
import { fromStage, type RequestContext, type Stage } from './stage.js';

/** The call a use case is given, but for its write. */
const callOf = (ctx: RequestContext, body: unknown, now: Date, write?: Write<unknown>) => ({
  client: fromStage(ctx, 'client'),
  body,
  params: ctx.params,
  correlationId: ctx.trace.correlationId,
  now,
  write,
});

/** A read's use case, its result answered in the envelope. */
export const runUseCase =
  (deps: ServiceDeps, useCase: ParsedUseCase): Stage =>
  async (ctx) => {
    const now = deps.clock.now();
    const result = await useCase.run(deps, callOf(ctx, ctx.body?.parsed, now));
    return envelope({ ...ctx.answer, now }, result);
  };

/** A write's use case: its key, hit, body, claim and answer are the write module's, the run the use case's. */
export const runWrite =
  (
    deps: ServiceDeps,
    writes: ReturnType<typeof createWrites>,
    useCase: ParsedUseCase,
    schema: z.ZodType,
  ): Stage =>
  (ctx) => {
    return writes({
      request: ctx.request,
      clientId: fromStage(ctx, 'client').clientId,
      answer: ctx.answer,
      trace: ctx.trace,
      readBody: bodyReader(deps, ctx, schema, useCase.trace),
      reads: useCase.reads,
      run: (body: unknown, write: Write<unknown>, now: Date) =>
        useCase.run(deps, callOf(ctx, body, now, write)),
    });
  };
