// The request pipeline of each API endpoint, its stages chosen from the endpoint's registry entry.
import { endpoints } from '@fin/core';
import type { ServiceDeps } from '../../deps/service-deps.js';
import { createIdempotency } from '../../idempotency/idempotency.js';
import { type UseCaseId, useCaseIds, useCaseOf } from '../use-case-table.js';
import { authenticate } from './authenticate.js';
import { idempotencyKey } from './idempotency-key.js';
import { idempotent } from './idempotent.js';
import { parseBody } from './parse-body.js';
import { rateLimit } from './rate-limit.js';
import { compose, type RequestContext, type Stage } from './stage.js';
import { runUseCase } from './use-case.js';

type Idempotency = ReturnType<typeof createIdempotency>;

/**
 * Authenticate (the entry's scopes), rate-limit (the entry's class), idempotency key (writes), parse the
 * body (entries with one), run once per key (writes), then the use case and its envelope.
 */
export function stagesOf(deps: ServiceDeps, id: UseCaseId, idempotency: Idempotency): Stage[] {
  const endpoint: endpoints.EndpointDefinition = endpoints.salesAuthorization[id];
  const useCase = useCaseOf(id);
  const { rate, scopes, body } = endpoint;
  if (rate === 'token' || scopes === 'none') throw new Error(`${id}: the token endpoint has no pipeline`);
  const write = rate === 'write';
  return [
    authenticate(deps, scopes),
    rateLimit(deps, rate),
    ...(write ? [idempotencyKey] : []),
    ...(body ? [parseBody(deps, body.schema, useCase.trace)] : []),
    ...(write ? [idempotent(deps, idempotency, useCase.claimWithinLimit)] : []),
    runUseCase(deps, useCase),
  ];
}

/**
 * One composed pipeline per registry entry (the token endpoint's aside), built once: an entry no use case
 * serves fails here, when the service is created. The returned function runs the one a call addresses.
 */
export function createPipelines(deps: ServiceDeps) {
  const idempotency = createIdempotency(deps);
  const ids = Object.keys(endpoints.salesAuthorization).filter((id) => id !== 'issueToken');
  const pipelines = new Map<string, ReturnType<typeof compose>>();
  for (const id of ids) {
    if (!useCaseIds.includes(id as UseCaseId))
      throw new Error(`${id}: in the registry, no use case serves it`);
    pipelines.set(id, compose(stagesOf(deps, id as UseCaseId, idempotency)));
  }
  return (ctx: RequestContext) => pipelines.get(ctx.operationId)!(ctx);
}
