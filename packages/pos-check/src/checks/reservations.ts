// Stock reservation (spec v1.1, optional): idempotent create, one hold per IMEI, TTL and expiry, release twice; skipped for a partner without it.
import { schemas } from '@fin/core';
import {
  answerText,
  type Check,
  type CheckContext,
  errorOf,
  expectError,
  skip,
  successData,
} from '../check.js';
import type { Exchange } from '../probe.js';

const MINUTES_15 = 900;

/** The hold in an answer, or `undefined` when the answer is not a 200 with a StockReservation. */
const holdOf = (exchange: Exchange) => {
  const parsed = schemas.stockReservation.safeParse(successData(exchange));
  return parsed.success ? parsed.data : undefined;
};

/** A write of the check: its own Idempotency-Key unless given. */
const keyed = (key: string = crypto.randomUUID()) => ({ 'Idempotency-Key': key });

/** Asks for a hold of the test IMEI (with `body`'s extra fields) under `key`, a new Idempotency-Key by default. */
const sendHold = (context: CheckContext, body: Record<string, unknown> = {}, key?: string) =>
  context.probe.send('createStockReservation', {
    query: { storeId: context.options.storeId },
    body: { imei: context.options.imei, ...body },
    headers: keyed(key),
  });

/**
 * Holds the test IMEI. A partner answering 404 (other than R-01's store codes) or 501 does not offer
 * reservations: the check is skipped. Any other answer but a hold is a violation, and the check stops.
 */
async function holdTestImei(context: CheckContext, body: Record<string, unknown> = {}, key?: string) {
  const { options, violation } = context;
  const exchange = await sendHold(context, body, key);
  const code = errorOf(exchange)?.code ?? '';
  const storeError = ['store_not_found', 'store_context_required'].includes(code);
  if (exchange.status === 501 || (exchange.status === 404 && !storeError)) {
    skip('the partner does not offer stock reservation (v1.1, optional): 404 or 501 on the collection');
  }
  const hold = holdOf(exchange);
  if (hold?.state !== 'ACTIVE' || hold.imei !== options.imei) {
    violation(
      exchange.endpoint,
      `a hold of the test IMEI; expected HTTP 200 with an ACTIVE StockReservation of that IMEI, got ${answerText(exchange)}`,
      'answer POST /v1/stock/reservations?storeId= { imei } with data { reservationId, storeId, state: ACTIVE, sku, quantity: 1, imei, createdAt, expiresAt }',
    );
    return skip('no hold of the test IMEI to go on with');
  }
  return { exchange, hold };
}

/** Releases a hold the check made, so the next check can hold the IMEI again. */
const releaseQuietly = (context: CheckContext, reservationId: string) =>
  context.probe.send('releaseStockReservation', {
    params: { reservationId },
    query: { storeId: context.options.storeId },
    headers: keyed(),
  });

export const reservationIdempotentCreate: Check = {
  id: 'reservation.idempotent-create',
  title: 'Stock reservation: a retry with the same Idempotency-Key answers the first hold',
  async run(context) {
    const key = crypto.randomUUID();
    const { hold } = await holdTestImei(context, {}, key);
    const retry = await sendHold(context, {}, key);
    const again = holdOf(retry);
    if (again?.reservationId !== hold.reservationId) {
      context.violation(
        retry.endpoint,
        `the same hold sent again with the same Idempotency-Key; expected HTTP 200 with reservationId ${hold.reservationId}, got ${answerText(retry)}${again ? ` with reservationId ${again.reservationId}` : ''}`,
        'keep the first answer of each Idempotency-Key and answer a retry with it: no second hold, no refusal',
      );
    }
    await releaseQuietly(context, hold.reservationId);
  },
};

export const reservationOnePerImei: Check = {
  id: 'reservation.one-per-imei',
  title: 'Stock reservation: an IMEI has at most one active hold',
  async run(context) {
    const { hold } = await holdTestImei(context);
    const second = await sendHold(context);
    expectError(
      context,
      second,
      { status: 409, code: 'imei_already_reserved' },
      'a second hold of an IMEI already held',
      'refuse a second active hold of one IMEI with HTTP 409 `imei_already_reserved`',
    );
    const extra = holdOf(second);
    if (extra) await releaseQuietly(context, extra.reservationId);
    await releaseQuietly(context, hold.reservationId);
  },
};

export const reservationExpiry: Check = {
  id: 'reservation.expiry',
  title: 'Stock reservation: the TTL sets expiresAt, never under 15 minutes (R-06), and extend moves it',
  async run(context) {
    const short = await sendHold(context, { ttlSeconds: MINUTES_15 - 1 });
    if (short.status === 404 || short.status === 501)
      return skip('the partner does not offer stock reservation');
    expectError(
      context,
      short,
      { status: 422, code: 'validation_error' },
      'a hold asking ttlSeconds 899 (under the 15 minutes of R-06)',
      'refuse ttlSeconds outside 900..7200 with HTTP 422 `validation_error`',
    );
    const shortHold = holdOf(short);
    if (shortHold) await releaseQuietly(context, shortHold.reservationId);
    const { exchange, hold } = await holdTestImei(context, { ttlSeconds: MINUTES_15 });
    const lasts = (Date.parse(hold.expiresAt) - Date.parse(hold.createdAt)) / 1000;
    if (Math.abs(lasts - MINUTES_15) > 1) {
      context.violation(
        exchange.endpoint,
        `a hold asking ttlSeconds 900 expires ${lasts} s after createdAt`,
        'set expiresAt = createdAt + ttlSeconds (default 1800), and end the hold EXPIRED at expiresAt',
      );
    }
    const extended = await context.probe.send('extendStockReservation', {
      params: { reservationId: hold.reservationId },
      query: { storeId: context.options.storeId },
      body: { ttlSeconds: 2 * MINUTES_15 },
      headers: keyed(),
    });
    const longer = holdOf(extended);
    if (!longer || longer.expiresAt <= hold.expiresAt) {
      context.violation(
        extended.endpoint,
        `extending an active hold by ttlSeconds 1800; expected HTTP 200 with a later expiresAt, got ${answerText(extended)}`,
        'answer extend with the hold lasting ttlSeconds from now (never less than it had)',
      );
    }
    await releaseQuietly(context, hold.reservationId);
  },
};

export const reservationReleaseTwice: Check = {
  id: 'reservation.release-twice',
  title: 'Stock reservation: release is idempotent, and an unknown reservation is a 404',
  async run(context) {
    const { hold } = await holdTestImei(context);
    const first = await releaseQuietly(context, hold.reservationId);
    const second = await releaseQuietly(context, hold.reservationId);
    for (const [exchange, which] of [
      [first, 'the first release'],
      [second, 'a second release of the same hold'],
    ] as const) {
      if (holdOf(exchange)?.state !== 'RELEASED') {
        context.violation(
          exchange.endpoint,
          `${which}; expected HTTP 200 with state RELEASED, got ${answerText(exchange)}`,
          'release idempotently: an ended hold (RELEASED, EXPIRED, COMMITTED) answers HTTP 200 with its current state',
        );
      }
    }
    const unknown = await context.probe.send('getStockReservation', {
      params: { reservationId: `RSV-UNKNOWN-${Date.now()}` },
      query: { storeId: context.options.storeId },
    });
    expectError(
      context,
      unknown,
      { status: 404, code: 'reservation_not_found' },
      'a reservation id the partner never issued',
      'answer an unknown reservation with HTTP 404 `reservation_not_found`',
    );
  },
};

export const reservationChecks: readonly Check[] = [
  reservationIdempotentCreate,
  reservationOnePerImei,
  reservationExpiry,
  reservationReleaseTwice,
];
