// The CreditEngine port: a new credit analysis when no proposal can be used (DESIGN 1c).
import type { Money } from '@fin/core';

export interface CreditAnalysisRequest {
  clientTaxId: string;
  clientName: string;
  storeId: string;
  planId: string;
  /** The cart's `grandTotal`: the amount to finance. */
  amount: Money;
  /** The API client (partner) asking. */
  clientId: string;
  correlationId?: string;
}

export type CreditDecision =
  /** `amount` is what was approved; R-02 requires it to equal the cart's `grandTotal`. */
  | { approved: true; amount: Money; installments: number }
  /** A refusal: answered with HTTP 200, `authorized: false` and this `declineReason`. */
  | { approved: false; declineReason: string; message?: string };

export interface CreditEngine {
  analyze(request: CreditAnalysisRequest): Promise<CreditDecision>;
}
