// The confirmation poller (DESIGN 4): for sales never confirmed, searches the partner POS until the sale is ACTIVE, then confirms from its invoice.
import { randomUUID } from 'node:crypto';
import { type ConfirmRequest, type SaleStatus, schemas } from '@fin/core';
import type { ServiceDeps } from '../deps/service-deps.js';
import { stopSignal, type WorkerRunOptions } from '../deps/stop-signal.js';
import type { AuthorizationRecord } from '../ports/records.js';
import { AUTHORIZATION_VALIDITY_MS } from '../rules/r06-expiry.js';
import { checkCancellationBySaleSearch } from '../rules/r08-cancellation.js';
import { confirmAuthorization } from '../use-cases/confirm.js';
import { searchSales } from '../use-cases/verify-cancellation.js';

export interface ConfirmationPollSummary {
  /** Authorizations whose sale was searched in this run. */
  checked: number;
  /** Confirmed from the sale's invoice (or found confirmed by a `confirm` that got there first). */
  confirmed: number;
  /** Sale not ACTIVE yet, not found, or the POS did not answer: searched again next period. */
  waiting: number;
  /** ACTIVE, but the confirmation was refused (invoiced after expiry, IMEI financed again ...). */
  refused: number;
}

const BATCH = 50;

/**
 * The confirmation a sale's invoice amounts to, if it is ACTIVE and carries invoice data. The spec's
 * SaleStatus has no invoice date: `saleDate` stands for it (R-06 then checks it against `expiresAt`).
 */
export function confirmationFromSale(sale: SaleStatus | undefined): ConfirmRequest | undefined {
  if (sale?.status !== 'ACTIVE') return undefined;
  const parsed = schemas.confirmRequest.safeParse({
    saleNumber: sale.saleNumber,
    invoiceNumber: sale.invoiceNumber,
    nfeAccessKey: sale.nfeAccessKey,
    invoicedAt: sale.saleDate,
  });
  return parsed.success ? parsed.data : undefined;
}

async function pollOne(
  deps: ServiceDeps,
  record: AuthorizationRecord,
): Promise<Exclude<keyof ConfirmationPollSummary, 'checked'>> {
  const saleSearch = deps.clients.get(record.clientId)?.saleSearch;
  const answer = await searchSales(saleSearch, record.imei, deps.settings.limits.saleSearchTimeoutMs);
  const confirmation = answer.ok
    ? confirmationFromSale(checkCancellationBySaleSearch(record, answer.sales).sale)
    : undefined;
  if (!confirmation) return 'waiting';
  // The same compare-and-set as the API's confirm: whichever of the two writes first creates the
  // contract, the other reads it back, so a sale gets one contract even when both run at once.
  const result = await confirmAuthorization(deps, record.authorizationId, confirmation, deps.clock.now());
  deps.logger?.info?.({
    event: 'confirmation.polled',
    authorizationId: record.authorizationId,
    outcome: result.ok ? 'confirmed' : result.code,
  });
  return result.ok ? 'confirmed' : 'refused';
}

/**
 * One pass of `service.workers.pollConfirmations()`: every authorization issued within the last
 * 15 minutes plus `confirmationGraceMs`, with neither confirmation nor cancellation notice, whose sale
 * was not searched in the last `confirmationPollMs`. Several instances may run it at once: each batch is
 * leased to the instance that listed it for `confirmationPollMs`, which also spaces the searches of one sale.
 */
export async function pollConfirmations(
  deps: ServiceDeps,
  options: WorkerRunOptions = {},
): Promise<ConfirmationPollSummary> {
  const stopped = stopSignal(deps, options);
  const { confirmationPollMs, confirmationGraceMs } = deps.settings.limits;
  const summary: ConfirmationPollSummary = { checked: 0, confirmed: 0, waiting: 0, refused: 0 };
  const owner = `poller:${randomUUID()}`;
  for (;;) {
    if (stopped()) return summary;
    const now = deps.clock.now();
    const batch = await deps.store.listUnconfirmed({
      issuedAfter: new Date(now.getTime() - AUTHORIZATION_VALIDITY_MS - confirmationGraceMs),
      limit: BATCH,
      lease: { owner, now, until: new Date(now.getTime() + confirmationPollMs) },
    });
    if (batch.length === 0) return summary;
    for (const record of batch) {
      if (stopped()) return summary;
      summary.checked += 1;
      summary[await pollOne(deps, record)] += 1;
    }
  }
}
