// The optional stock reservation endpoints of the Partner POS API (spec v1.1, DESIGN 24): hold, read, extend, release.
import * as z from 'zod';
import type { ErrorCode } from '../errors/catalog.js';
import {
  reservationExtendRequest,
  reservationQuery,
  reservationRequest,
  stockReservation,
} from '../schemas/partner-pos.js';
import { defineEndpoint, type NamedExample } from './endpoint.js';
import {
  reservationExamples,
  reservationExtendExamples,
  reservationExtendedExamples,
  reservationReleasedExamples,
  reservationRequestExamples,
  reservationStateExamples,
} from './reservation-examples.js';

/** A write of the financing service: idempotent by `Idempotency-Key`, under `inventory:read` (SR-7). */
const write = { method: 'POST', rate: 'write', scopes: ['inventory:read'] } as const;
const docs = { tag: 'Stock reservation', extensions: { 'x-sync': 'real time', 'x-since': 'v1.1' } } as const;

/** R-01 on every call: the store in the query; a hold of another store is unknown there. */
const storeScoped = ['store_context_required', 'store_not_found'] as const satisfies readonly ErrorCode[];
const oneHold = [...storeScoped, 'reservation_not_found'] as const satisfies readonly ErrorCode[];

const reservationPath = z.object({
  reservationId: stockReservation.shape.reservationId.meta({
    description: 'The `reservationId` the hold was created with.',
  }),
});

const held = (name: string, description: string, examples: Record<string, NamedExample>) => ({
  schema: stockReservation,
  envelope: true as const,
  name,
  description,
  examples,
});

export const stockReservationEndpoints = {
  createStockReservation: defineEndpoint({
    ...write,
    path: '/v1/stock/reservations',
    query: reservationQuery,
    body: {
      schema: reservationRequest,
      mediaType: 'application/json',
      examples: reservationRequestExamples,
    },
    response: held('StockReservationResponse', 'The hold, `ACTIVE` until `expiresAt`.', reservationExamples),
    errors: [
      ...storeScoped,
      'resource_not_found',
      'imei_not_in_stock',
      'insufficient_stock',
      'imei_already_reserved',
      'not_implemented',
    ],
    docs: {
      summary: 'Hold a smartphone (by IMEI) or accessory units (by SKU) for a while',
      description:
        'Optional capability (v1.1): a partner without it answers 404 or 501 here, which the financing service ' +
        'reads as "not supported" and sells as before. A hold is never part of an authorization. A smartphone is ' +
        'held by `imei` (quantity 1, at most one `ACTIVE` hold per IMEI: else `imei_already_reserved`); an ' +
        'accessory by `sku` and `quantity`. Holds never exceed stock: `insufficient_stock` when `stock` minus ' +
        '`reserved` is short. `ttlSeconds` 900 to 7200, default 1800; the hold is `EXPIRED` at `expiresAt` ' +
        'unless extended, `RELEASED` when released, `COMMITTED` when the POS invoices the sale. Retries with ' +
        'the same `Idempotency-Key` answer the first hold.',
      ...docs,
    },
  }),
  getStockReservation: defineEndpoint({
    method: 'GET',
    path: '/v1/stock/reservations/{reservationId}',
    rate: 'read',
    scopes: ['inventory:read'],
    pathParameters: reservationPath,
    query: reservationQuery,
    response: held(
      'StockReservationStateResponse',
      'The hold and its current state.',
      reservationStateExamples,
    ),
    errors: oneHold,
    docs: {
      summary: 'Read a hold and its current state',
      description:
        'A 404 here means this reservation is unknown in this store, never that the capability is missing. ' +
        'An `ACTIVE` hold past its `expiresAt` reads `EXPIRED`.',
      ...docs,
    },
  }),
  extendStockReservation: defineEndpoint({
    ...write,
    path: '/v1/stock/reservations/{reservationId}/extend',
    pathParameters: reservationPath,
    query: reservationQuery,
    body: {
      schema: reservationExtendRequest,
      mediaType: 'application/json',
      examples: reservationExtendExamples,
    },
    response: held(
      'StockReservationExtendResponse',
      'The hold with its new `expiresAt`.',
      reservationExtendedExamples,
    ),
    errors: [...oneHold, 'reservation_not_active'],
    docs: {
      summary: 'Extend an active hold',
      description:
        'The hold lasts `ttlSeconds` (900 to 7200, default 1800) from now, and never less than it already had. ' +
        'A hold that is no longer `ACTIVE` cannot be extended: `reservation_not_active` with its state in ' +
        '`details`.',
      ...docs,
    },
  }),
  releaseStockReservation: defineEndpoint({
    ...write,
    path: '/v1/stock/reservations/{reservationId}/release',
    pathParameters: reservationPath,
    query: reservationQuery,
    response: held(
      'StockReservationReleaseResponse',
      'The hold in its current state.',
      reservationReleasedExamples,
    ),
    errors: oneHold,
    docs: {
      summary: 'Release a hold',
      description:
        'Idempotent: an `ACTIVE` hold becomes `RELEASED`; releasing a hold already `RELEASED`, `EXPIRED` or ' +
        '`COMMITTED` changes nothing and answers HTTP 200 with its current state.',
      ...docs,
    },
  }),
};
