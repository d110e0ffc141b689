// Example payloads of the optional stock reservation endpoints (spec v1.1), parsed by their schemas in the tests.
import type { ReservationExtendRequest, ReservationRequest, StockReservation } from '../schemas/index.js';
import type { NamedExample } from './endpoint.js';

const createdAt = '2026-01-15T12:00:00.000Z';
const smartphoneHold = {
  reservationId: 'RSV-000123',
  storeId: 'LJ-0042',
  state: 'ACTIVE',
  sku: 'SM-A15-128',
  quantity: 1,
  imei: '356938035643809',
  createdAt,
  expiresAt: '2026-01-15T12:30:00.000Z',
} satisfies StockReservation;

const expired = {
  summary: 'Expired: nobody extended or released it in time',
  value: {
    ...smartphoneHold,
    state: 'EXPIRED',
    endedAt: smartphoneHold.expiresAt,
  } satisfies StockReservation,
};

export const reservationRequestExamples = {
  smartphone: {
    summary: 'Hold one smartphone by IMEI for the default 30 minutes',
    value: { imei: '356938035643809' } satisfies ReservationRequest,
  },
  accessory: {
    summary: 'Hold two units of an accessory for 20 minutes',
    value: { sku: 'AC-CASE-A15', quantity: 2, ttlSeconds: 1200 } satisfies ReservationRequest,
  },
} satisfies Record<string, NamedExample>;

export const reservationExamples = {
  active: { summary: 'An active hold of one smartphone', value: smartphoneHold },
} satisfies Record<string, NamedExample>;

export const reservationStateExamples = {
  active: { summary: 'Still held', value: smartphoneHold },
  committed: {
    summary: 'Committed: the POS invoiced the device',
    value: {
      ...smartphoneHold,
      state: 'COMMITTED',
      endedAt: '2026-01-15T12:14:00.000Z',
    } satisfies StockReservation,
  },
  expired,
} satisfies Record<string, NamedExample>;

export const reservationExtendExamples = {
  grace: {
    summary: 'Hold 40 more minutes from now (authorization validity plus confirmation grace)',
    value: { ttlSeconds: 2400 } satisfies ReservationExtendRequest,
  },
} satisfies Record<string, NamedExample>;

export const reservationExtendedExamples = {
  extended: {
    summary: 'The hold, now lasting until the new expiresAt',
    value: { ...smartphoneHold, expiresAt: '2026-01-15T12:50:00.000Z' } satisfies StockReservation,
  },
} satisfies Record<string, NamedExample>;

export const reservationReleasedExamples = {
  released: {
    summary: 'Released now (or earlier: a second release answers the same)',
    value: {
      ...smartphoneHold,
      state: 'RELEASED',
      endedAt: '2026-01-15T12:05:00.000Z',
    } satisfies StockReservation,
  },
  expired: { ...expired, summary: 'Already expired: release answers its current state' },
} satisfies Record<string, NamedExample>;
