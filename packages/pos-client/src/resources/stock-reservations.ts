// Stock holds (spec v1.1, optional per partner): reserve, read, extend, release; "not supported" is an answer, never a throw.
import {
  endpoints,
  FinApiError,
  FinInputError,
  type ReservationExtendRequest,
  type ReservationRequest,
  type StockReservation,
} from '@fin/core';
import { schemaFailure } from '@fin/core/errors';
import { type WithResponse, type WriteResult, withResponse, withWriteReceipt } from '@fin/core/transport';
import type { z } from 'zod';
import { type CallOptions, type ClientContext, callOptions } from '../client-context.js';

const api = endpoints.partnerPos;

/** What a reservation call answers: the hold, or a partner without the capability (no error thrown). */
export type ReservationOutcome<R> = { supported: true; reservation: R } | { supported: false };

/** A write's options: beside the call's, the `Idempotency-Key` to reuse when retrying the same intention. */
export interface ReservationWriteOptions extends CallOptions {
  idempotencyKey?: string;
}

export interface StockReservations {
  /**
   * Holds a smartphone (`{ imei }`) or accessory units (`{ sku, quantity }`) for `ttlSeconds` (900 to
   * 7200, default 1800). `{ supported: false }` when the partner answers 404 or 501 on the collection;
   * remembered for this client, so later calls to that partner send nothing.
   */
  reserve(
    input: ReservationRequest,
    options?: ReservationWriteOptions,
  ): Promise<ReservationOutcome<WriteResult<StockReservation>>>;
  /** The hold and its current state; an unknown id rejects with `reservation_not_found`. */
  reservation(id: string, options?: CallOptions): Promise<ReservationOutcome<WithResponse<StockReservation>>>;
  /** The hold lasts `ttlSeconds` from now (never less than it had); `reservation_not_active` once it ended. */
  extend(
    id: string,
    input?: ReservationExtendRequest,
    options?: ReservationWriteOptions,
  ): Promise<ReservationOutcome<WriteResult<StockReservation>>>;
  /** Idempotent: an active hold becomes `RELEASED`; an ended one answers its current state. */
  release(
    id: string,
    options?: ReservationWriteOptions,
  ): Promise<ReservationOutcome<WriteResult<StockReservation>>>;
}

/** Partners (one per client context) known not to offer reservations. */
const unsupportedPartners = new WeakSet<ClientContext>();

/** 404 codes about the call itself (R-01's store; an unknown SKU for an accessory hold), not a missing capability. */
const callErrors = (input: ReservationRequest) =>
  new Set(['store_not_found', 'store_context_required', ...('sku' in input ? ['resource_not_found'] : [])]);

/** The collection's "not supported" (SR-12): 501, or a 404 that is not one of the call's own errors. */
const collectionUnsupported = (input: ReservationRequest) => (error: unknown) =>
  error instanceof FinApiError &&
  (error.status === 501 || (error.status === 404 && !callErrors(input).has(error.code)));

function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new FinInputError(schemaFailure(result.error));
  return result.data;
}

const requireId = (id: unknown): string => {
  if (typeof id !== 'string' || id.trim() === '' || id.length > 64) {
    throw new FinInputError({
      code: 'validation_error',
      details: [{ field: 'reservationId', issue: 'the reservationId of reserve(), 1 to 64 characters' }],
    });
  }
  return id;
};

export function createStockReservations(context: ClientContext, storeId: string): StockReservations {
  const query = { storeId };
  /** Sends one call unless the partner is known not to have it; a 501 anywhere teaches that too. */
  const call = async <R>(
    send: () => Promise<R>,
    unsupported: (error: unknown) => boolean,
  ): Promise<ReservationOutcome<R>> => {
    if (unsupportedPartners.has(context)) return { supported: false };
    try {
      return { supported: true, reservation: await send() };
    } catch (error) {
      if (!unsupported(error)) throw error;
      unsupportedPartners.add(context);
      context.log('info', { event: 'stock_reservation_unsupported', storeId });
      return { supported: false };
    }
  };
  const only501 = (error: unknown) => error instanceof FinApiError && error.status === 501;
  const write = async <E extends endpoints.EndpointDefinition>(
    endpoint: E,
    input: endpoints.EndpointInput,
    { idempotencyKey, ...options }: ReservationWriteOptions,
  ) => {
    const { data, meta } = await context.http.request({
      ...endpoints.endpointRequest(endpoint, { ...input, query }),
      ...callOptions(options),
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
    return withWriteReceipt(data as StockReservation, meta);
  };

  return {
    reserve: async (input, options = {}) => {
      const body = parsed(api.createStockReservation.body.schema, input);
      return call(() => write(api.createStockReservation, { body }, options), collectionUnsupported(body));
    },
    reservation: async (id, options = {}) => {
      const params = { reservationId: requireId(id) };
      return call(async () => {
        const { data, meta } = await context.http.request({
          ...endpoints.endpointRequest(api.getStockReservation, { params, query }),
          ...callOptions(options),
        });
        return withResponse(data, meta);
      }, only501);
    },
    extend: async (id, input = {}, options = {}) => {
      const params = { reservationId: requireId(id) };
      const body = parsed(api.extendStockReservation.body.schema, input);
      return call(() => write(api.extendStockReservation, { params, body }, options), only501);
    },
    release: async (id, options = {}) => {
      const params = { reservationId: requireId(id) };
      return call(() => write(api.releaseStockReservation, { params }, options), only501);
    },
  };
}
