// What a POS vendor writes: authorize a financed cart, invoice only after `authorized: true`, confirm, handle refusals by code.
import {
  type AuthorizationApproved,
  type AuthorizationClient,
  buildCart,
  type CartInput,
  type ConfirmInput,
  FinApiError,
  isExpired,
  isFinApiError,
} from '@fin/authorization-client';
import { type ConfirmResult, catalogEntry } from '@fin/core';

/** Refusals the POS answers at the counter; the catalog says what to do. Anything else is thrown. */
const HANDLED = new Set([
  'total_mismatch',
  'imei_already_financed',
  'authorization_expired',
  'store_not_found',
]);

export type CheckoutResult =
  | {
      outcome: 'financed';
      authorization: AuthorizationApproved;
      contract: ConfirmResult;
      correlationId: string;
    }
  | { outcome: 'declined'; declineReason: string; message: string }
  | { outcome: 'refused'; code: string; status: number; legacyCode?: string; action: string };

/**
 * One financed sale, one journey (one X-Correlation-Id): authorize the cart; `issueInvoice` is the POS's
 * own invoicing, called only after `authorized: true`; then confirm with that invoice.
 */
export async function checkout(
  fin: AuthorizationClient,
  order: CartInput,
  issueInvoice: (authorization: AuthorizationApproved) => Promise<ConfirmInput>,
): Promise<CheckoutResult> {
  const sale = fin.journey();
  try {
    // buildCart computes every total in integer cents: R-02 holds by construction.
    const authorization = await sale.authorize(buildCart(order));
    if (!authorization.authorized) {
      // a credit refusal is an answer, not an error. Show its message to the seller.
      const { declineReason, message } = authorization;
      return { outcome: 'declined', declineReason, message };
    }
    if (isExpired(authorization)) throw new FinApiError({ code: 'authorization_expired' });
    const invoice = await issueInvoice(authorization);
    const contract = await sale.confirm(authorization.authorizationId, invoice);
    return { outcome: 'financed', authorization, contract, correlationId: sale.correlationId };
  } catch (error) {
    // Connection errors and time-outs (after the client's own retries) are thrown: do not invoice.
    if (!isFinApiError(error) || !HANDLED.has(error.code)) throw error;
    const { code, status, legacyCode } = error;
    return {
      outcome: 'refused',
      code,
      status,
      legacyCode,
      action: catalogEntry(code)?.action ?? error.message,
    };
  }
}
