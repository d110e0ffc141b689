// The request pipeline of each API endpoint, its stages chosen from the endpoint's registry entry.
import { endpoints } from '@fin/core';
import type { ServiceDeps } from '../../deps/service-deps.js';
import { createWrites } from '../../idempotency/write.js';
import { type UseCaseId, useCaseIds, useCaseOf } from '../use-case-table.js';
import { authenticate } from './authenticate.js';
import { bodyReader } from './parse-body.js';
import { readLimit } from './rate-limit.js';
import { compose, type RequestContext, type Stage } from './stage.js';
import { runUseCase, runWrite } from './use-case.js';

type Writes = ReturnType<typeof createWrites>;

/**
 * Authenticate (the entry's scopes), then a write (its key, hit, body, claim, run and answer: the write
 * module's), or a read's limit, body (entries with one) and use case.
 */
export function stagesOf(deps: ServiceDeps, id: UseCaseId, writes: Writes): Stage[] {
  const endpoint: endpoints.EndpointDefinition = endpoints.salesAuthorization[id];
  const useCase = useCaseOf(id);
  const { rate, scopes, body } = endpoint;
  if (rate === 'token' || scopes === 'none') throw new Error(`${id}: the token endpoint has no pipeline`);
  if (rate === 'write') {
    if (!body) throw new Error(`${id}: a write without a body schema`);
    return [authenticate(deps, scopes), runWrite(deps, writes, useCase, body.schema)];
  }
  const parseBody: Stage[] = body
    ? [
        async (ctx, next) => {
          const read = await bodyReader(deps, ctx, body.schema, useCase.trace)();
          if (!read.ok) return read.response;
          ctx.body = { parsed: read.parsed };
          return next();
        },
      ]
    : [];
  return [authenticate(deps, scopes), readLimit(deps), ...parseBody, runUseCase(deps, useCase)];
}

/**
 * One composed pipeline per registry entry (the token endpoint's aside), built once: an entry no use case
 * serves fails here, when the service is created. The returned function runs the one a call addresses.
 */
export function createPipelines(deps: ServiceDeps) {
  const writes = createWrites(deps);
  const ids = Object.keys(endpoints.salesAuthorization).filter((id) => id !== 'issueToken');
  const pipelines = new Map<string, ReturnType<typeof compose>>();
  for (const id of ids) {
    if (!useCaseIds.includes(id as UseCaseId))
      throw new Error(`${id}: in the registry, no use case serves it`);
    pipelines.set(id, compose(stagesOf(deps, id as UseCaseId, writes)));
  }
  return (ctx: RequestContext) => pipelines.get(ctx.operationId)!(ctx);
}
