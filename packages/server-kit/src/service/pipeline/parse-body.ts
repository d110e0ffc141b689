// The JSON body within the size limit, parsed by the endpoint's schema; for the entries that have a body.
import type { z } from 'zod';
import type { ServiceDeps } from '../../deps/service-deps.js';
import { readJson } from '../../http/body.js';
import { failure } from '../../http/envelope.js';
import { validate } from '../../http/validate.js';
import type { ReadBody } from '../../idempotency/write.js';
import type { Trace } from '../request-log.js';
import type { RequestContext } from './stage.js';

/** Fields of the log line read from the parsed body (masked by `redact`). */
export type BodyTrace = (body: unknown) => Pick<Trace, 'clientTaxId' | 'imei'>;

/** Reads `ctx`'s body as `schema` parses it, its log fields set on the trace; or the refusal to answer. */
export const bodyReader =
  (deps: ServiceDeps, ctx: RequestContext, schema: z.ZodType, trace?: BodyTrace): ReadBody<unknown> =>
  async () => {
    const body = await readJson(ctx.request, deps.settings.limits.maxBodyBytes);
    if (!body.ok) return { ok: false, response: failure(ctx.answer, body.code, { details: body.details }) };
    const checked = validate(schema, body.value);
    if (!checked.ok) {
      return { ok: false, response: failure(ctx.answer, checked.code, { details: checked.details }) };
    }
    Object.assign(ctx.trace, trace?.(checked.data));
    return { ok: true, raw: body.value, parsed: checked.data };
  };
