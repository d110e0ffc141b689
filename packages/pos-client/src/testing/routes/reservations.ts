// The optional stock reservation endpoints of the simulated partner (spec v1.1), or the answers of a partner without them.
import { endpoints } from '@fin/core';
import type { z } from 'zod';
import type { HoldOutcome } from '../reservations/book.js';
import { fail, json, ok } from '../respond.js';
import { type Exchange, jsonBody, storeQuery, validate } from './exchange.js';

const api = endpoints.partnerPos;

/** A write's first answer, kept by its `Idempotency-Key` so a retry gets the same hold. */
export interface Replay {
  fingerprint: string;
  status: number;
  body: string;
}

/** A partner without the capability: 404 `not_found` or 501 `not_implemented` on every reservation path. */
function unsupported(exchange: Exchange) {
  const { reservations } = exchange.state.variants;
  if (reservations === 'supported') return undefined;
  return fail(exchange.context, reservations === 'not-found' ? 'not_found' : 'not_implemented');
}

const answerOf = (exchange: Exchange, outcome: HoldOutcome) =>
  outcome.ok
    ? ok(exchange.context, outcome.hold)
    : fail(exchange.context, outcome.code, {
        ...(outcome.hold ? { details: [{ field: 'state', issue: outcome.hold.state }] } : {}),
      });

/**
 * A write: the key is required; a retry with the same key and body answers the first answer again, the
 * same key with another body is `idempotency_key_conflict`.
 */
async function idempotent(exchange: Exchange, body: string, run: () => Promise<Response> | Response) {
  const key = exchange.request.headers.get('idempotency-key');
  if (!key) return fail(exchange.context, 'missing_idempotency_key');
  const url = new URL(exchange.request.url);
  const slot = `${url.pathname}?${url.searchParams.get('storeId')}#${key}`;
  const fingerprint = body;
  const { replays } = exchange.state.reservations;
  const earlier = replays.get(slot);
  if (earlier) {
    if (earlier.fingerprint !== fingerprint) return fail(exchange.context, 'idempotency_key_conflict');
    // The first answer's status and data; the envelope names this request (its id and time).
    const { context } = exchange;
    const envelope = JSON.parse(earlier.body) as Record<string, unknown>;
    const replayed = { ...envelope, timestamp: context.now.toISOString(), requestId: context.requestId };
    return json(context, earlier.status, replayed, { 'Idempotent-Replayed': 'true' });
  }
  const response = await run();
  if (response.status < 500) {
    replays.set(slot, { fingerprint, status: response.status, body: await response.clone().text() });
  }
  return response;
}

/** The reservation id of the path (`/v1/stock/reservations/{reservationId}[/action]`). */
const reservationIdOf = (exchange: Exchange) =>
  decodeURIComponent(new URL(exchange.request.url).pathname.split('/reservations/')[1]!.split('/')[0]!);

/** The capability, then R-01 (`storeId` of the query): the store of a reservation call, or the answer refusing it. */
function holdStore(exchange: Exchange): { storeId: string } | { response: Response } {
  const refused = unsupported(exchange);
  if (refused) return { response: refused };
  const scoped = storeQuery(exchange, api.getStockReservation.query);
  return 'response' in scoped ? scoped : { storeId: scoped.store.storeId };
}

/** A write with a JSON body: read, kept by its Idempotency-Key, validated by `schema`, then `run` on the book. */
async function bodyWrite<S extends z.ZodType>(
  exchange: Exchange,
  schema: S,
  run: (value: z.infer<S>, storeId: string) => HoldOutcome,
) {
  const store = holdStore(exchange);
  if ('response' in store) return store.response;
  const body = await jsonBody(exchange);
  if ('response' in body) return body.response;
  return idempotent(exchange, JSON.stringify(body.value), () => {
    const request = validate(exchange, schema, body.value);
    return 'response' in request ? request.response : answerOf(exchange, run(request.value, store.storeId));
  });
}

export const createStockReservation = (exchange: Exchange) =>
  bodyWrite(exchange, api.createStockReservation.body.schema, (request, storeId) =>
    exchange.state.reservations.book.create(storeId, request, exchange.context.now),
  );

export function getStockReservation(exchange: Exchange) {
  const store = holdStore(exchange);
  if ('response' in store) return store.response;
  const { book } = exchange.state.reservations;
  return answerOf(exchange, book.get(store.storeId, reservationIdOf(exchange), exchange.context.now));
}

export const extendStockReservation = (exchange: Exchange) =>
  bodyWrite(exchange, api.extendStockReservation.body.schema, (request, storeId) =>
    exchange.state.reservations.book.extend(
      storeId,
      reservationIdOf(exchange),
      request.ttlSeconds,
      exchange.context.now,
    ),
  );

/** Idempotent by nature too: a hold no longer `ACTIVE` answers its current state. */
export function releaseStockReservation(exchange: Exchange) {
  const store = holdStore(exchange);
  if ('response' in store) return store.response;
  return idempotent(exchange, '', () => {
    const { book } = exchange.state.reservations;
    return answerOf(exchange, book.release(store.storeId, reservationIdOf(exchange), exchange.context.now));
  });
}
