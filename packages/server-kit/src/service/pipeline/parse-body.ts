// Stage: the JSON body within the size limit, parsed by the endpoint's schema; only for entries that have a body.
import type { z } from 'zod';
import type { ServiceDeps } from '../../deps/service-deps.js';
import { readJson } from '../../http/body.js';
import { failure } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import type { Trace } from '../request-log.js';
import type { Stage } from './stage.js';

/** Fields of the log line read from the parsed body (masked by `redact`). */
export type BodyTrace = (body: unknown) => Pick<Trace, 'clientTaxId' | 'imei'>;

export const parseBody =
  (deps: ServiceDeps, schema: z.ZodType, trace?: BodyTrace): Stage =>
  async (ctx, next) => {
    const body = await readJson(ctx.request, deps.settings.limits.maxBodyBytes);
    if (!body.ok) return failure(ctx.answer, body.code, { details: body.details });
    const checked = validate(schema, body.value);
    if (!checked.ok) return failure(ctx.answer, checked.code, { details: checked.details });
    ctx.body = { raw: body.value, parsed: checked.data };
    Object.assign(ctx.trace, trace?.(checked.data));
    return next();
  };
