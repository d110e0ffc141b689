// Stage: the bearer token of spec section 5, with the scopes the endpoint's registry entry requires.
import type { Scope } from '@fin/core';
import { authenticateBearer } from '../../auth/bearer.js';
import type { ServiceDeps } from '../../deps/service-deps.js';
import { failure } from '../../http/envelope.js';
import type { Stage } from './stage.js';

export const authenticate =
  (deps: ServiceDeps, scopes: readonly Scope[]): Stage =>
  async (ctx, next) => {
    const auth = await authenticateBearer(deps, ctx.request, scopes, ctx.answer.now);
    if (!auth.ok) return failure(ctx.answer, auth.code, { headers: auth.headers });
    ctx.client = auth.client;
    ctx.trace.clientId = auth.client.clientId;
    return next();
  };
