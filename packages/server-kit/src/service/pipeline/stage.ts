// A stage of the request pipeline (hono-style middleware): the context it reads and enriches, and their composition.
import type { endpoints } from '@fin/core';
import type { RegisteredClient } from '../../deps/clients.js';
import type { AnswerContext } from '../../http/envelope.js';
import type { PlainRequest, PlainResponse } from '../../http/plain.js';
import type { Trace } from '../request-log.js';
import type { UseCaseId } from '../use-case-table.js';

/** One API call on its way through the stages; each optional field is set by the stage that names it. */
export interface RequestContext {
  request: PlainRequest;
  operationId: UseCaseId;
  endpoint: endpoints.EndpointDefinition;
  /** The decoded path parameters (`{id}`). */
  params: Readonly<Record<string, string>>;
  /** The request id every answer echoes, and the moment of the answers refused before the use case. */
  answer: AnswerContext;
  /** The fields of the request's log line. */
  trace: Trace;
  /** `authenticate`: the client the bearer token belongs to. */
  client?: RegisteredClient;
  /** `parseBody` of a read that has a body: the body as the entry's schema parsed it. */
  body?: { parsed: unknown };
}

export type Next = () => Promise<PlainResponse>;
export type Stage = (ctx: RequestContext, next: Next) => Promise<PlainResponse>;

/** The field an earlier stage set; a pipeline composed without that stage is a bug. */
export function fromStage<K extends keyof RequestContext>(
  ctx: RequestContext,
  field: K,
): NonNullable<RequestContext[K]> {
  const value = ctx[field];
  if (value === undefined) throw new Error(`pipeline: no stage set ${field} before it was read`);
  return value as NonNullable<RequestContext[K]>;
}

/** Runs `stages` in order, each calling the next; the last one answers without `next`. */
export function compose(stages: readonly Stage[]): (ctx: RequestContext) => Promise<PlainResponse> {
  return (ctx) => {
    const at = (index: number): Promise<PlainResponse> => {
      const stage = stages[index];
      if (!stage) throw new Error('pipeline: the last stage called next()');
      return stage(ctx, () => at(index + 1));
    };
    return at(0);
  };
}
