// What a route of the simulated partner receives, and the checks routes share (validation, store context).
import type { ErrorDetail, Store } from '@fin/core';
import { exceedsJsonDepth, jsonDepthIssue, MAX_JSON_DEPTH } from '@fin/core/errors';
import type { z } from 'zod';
import type { PartnerVariants } from '../controls.js';
import type { Dataset } from '../data/dataset.js';
import type { ReservationBook } from '../reservations/book.js';
import { type ExchangeContext, fail } from '../respond.js';

/** Which of the spec's two seller-session response shapes the partner answers with. */
export type LoginShape = 'status-wrapped' | 'flat';

/** The mutable state of one simulated partner; routes read and change it, nothing else does. */
export interface SimulationState {
  dataset: Dataset;
  loginShape: LoginShape;
  sessionTtlSeconds: number;
  /** How this partner reads the spec where it is open (`sim.partner.set(...)`). */
  variants: PartnerVariants;
  /** Stock holds (v1.1) and the first answers of their writes by `Idempotency-Key`. */
  reservations: {
    book: ReservationBook;
    replays: Map<string, { fingerprint: string; status: number; body: string }>;
  };
}

export interface Exchange {
  request: Request;
  query: URLSearchParams;
  context: ExchangeContext;
  state: SimulationState;
}

export type Route = (exchange: Exchange) => Response | Promise<Response>;

/** Zod issues as the error object's `details`: field paths and what is wrong, never the values sent. */
const detailsOf = (error: z.ZodError): ErrorDetail[] =>
  error.issues.map((issue) => ({ field: issue.path.join('.') || '(body)', issue: issue.message }));

/** The parsed input, or the 422 `validation_error` answer naming each field. */
export function validate<S extends z.ZodType>(
  exchange: Exchange,
  schema: S,
  input: unknown,
): { value: z.infer<S> } | { response: Response } {
  const parsed = schema.safeParse(input);
  return parsed.success
    ? { value: parsed.data }
    : { response: fail(exchange.context, 'validation_error', { details: detailsOf(parsed.error) }) };
}

/** The largest request body the simulated partner reads, like the financing service's default. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * The JSON body, or the answer that refuses it: 415 `unsupported_media_type` when it is not declared JSON,
 * 413 `payload_too_large` past 64 KiB, 400 `bad_request` when it nests deeper than MAX_JSON_DEPTH or does not parse.
 */
export async function jsonBody(exchange: Exchange): Promise<{ value: unknown } | { response: Response }> {
  const { request, context } = exchange;
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(request.headers.get('content-type') ?? '')) {
    return { response: fail(context, 'unsupported_media_type') };
  }
  const text = await request.text();
  if (new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES) {
    return { response: fail(context, 'payload_too_large') };
  }
  // Before anything walks the value (validation, the request log): deep nesting would overflow the stack.
  if (exceedsJsonDepth(text)) {
    return {
      response: fail(context, 'bad_request', {
        message: `O corpo da requisição aninha mais de ${MAX_JSON_DEPTH} níveis.`,
        details: [{ field: 'body', issue: jsonDepthIssue() }],
      }),
    };
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return {
      response: fail(context, 'bad_request', { message: 'O corpo da requisição não é JSON válido.' }),
    };
  }
}

/**
 * the store of a store-scoped call. No `storeId` (missing, empty or blank) is `store_context_required` (400); one this
 * partner does not have is `store_not_found` (404). Length is left to the query schema (422).
 */
function storeOf(exchange: Exchange): { store: Store } | { response: Response } {
  const storeId = exchange.query.get('storeId');
  if (!storeId?.trim()) return { response: fail(exchange.context, 'store_context_required') };
  const store = exchange.state.dataset.stores.find((candidate) => candidate.storeId === storeId);
  return store ? { store } : { response: fail(exchange.context, 'store_not_found') };
}

/** The query string as a plain object, for the query schemas. */
export const queryObject = (exchange: Exchange) => Object.fromEntries(exchange.query);

/** A store-scoped query: R-01 first (`storeOf`), then the query schema (`validate`). */
export function storeQuery<S extends z.ZodType>(
  exchange: Exchange,
  schema: S,
): { store: Store; query: z.infer<S> } | { response: Response } {
  const scope = storeOf(exchange);
  if ('response' in scope) return scope;
  const query = validate(exchange, schema, queryObject(exchange));
  if ('response' in query) return query;
  return { store: scope.store, query: query.value };
}
