// The StockHolds port: a partner POS's optional stock reservations (spec v1.1), which the service calls outside any authorize.
import type { ReservationExtendRequest, ReservationRequest, StockReservation } from '@fin/core';

/** A reservation call's answer: the hold, or a partner without the capability. */
export type StockHoldOutcome = { supported: true; reservation: StockReservation } | { supported: false };

/** One store's reservation calls: `pos.store(storeId).stock` of `@fin/pos-client` is one. */
export interface StoreStockHolds {
  reserve(input: ReservationRequest, options?: { idempotencyKey?: string }): Promise<StockHoldOutcome>;
  reservation(id: string): Promise<StockHoldOutcome>;
  extend(
    id: string,
    input?: ReservationExtendRequest,
    options?: { idempotencyKey?: string },
  ): Promise<StockHoldOutcome>;
  release(id: string, options?: { idempotencyKey?: string }): Promise<StockHoldOutcome>;
}

/**
 * One per partner (`clients[].stockHolds`): a `PosClient` of `@fin/pos-client` is one. Refusals throw the
 * partner's `FinApiError` (`imei_already_reserved`, `reservation_not_active` ...); any other throw means
 * the partner did not answer and the holds worker tries again later.
 */
export interface StockHolds {
  store(storeId: string): { stock: StoreStockHolds };
}
