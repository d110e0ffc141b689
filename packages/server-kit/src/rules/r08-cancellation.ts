// the financing is cancelled only once the partner's sale search shows the sale CANCELLED; the search prevails.
import type { SaleStatus } from '@fin/core';
import type { AuthorizationRecord } from '../ports/records.js';

export type SaleSearchVerdict =
  /** The search shows the sale `CANCELLED`: cancel the financing. */
  | { verification: 'VERIFIED'; sale: SaleStatus }
  /** The search shows the sale `PENDING` or `ACTIVE`: the notice is contradicted, the financing stays. */
  | { verification: 'CONTRADICTED'; sale: SaleStatus }
  /** No sale of this authorization in the answer: ask again later. */
  | { verification: 'PENDING'; sale: undefined };

/**
 * which sale of the search answer (searched by the authorization's IMEI) is this authorization's: the
 * one with the confirmed `saleNumber`; without a confirmation, the latest sale of the IMEI made at or
 * after the authorization was issued (less `skewMs` for clocks that disagree).
 */
export function checkCancellationBySaleSearch(
  record: Pick<AuthorizationRecord, 'imei' | 'issuedAt' | 'confirmation'>,
  sales: readonly SaleStatus[],
  skewMs = 15 * 60_000,
): SaleSearchVerdict {
  const saleNumber = record.confirmation?.saleNumber;
  const since = Date.parse(record.issuedAt) - skewMs;
  const candidates = sales.filter((sale) =>
    saleNumber
      ? sale.saleNumber === saleNumber
      : (sale.imei === undefined || sale.imei === record.imei) && Date.parse(sale.saleDate) >= since,
  );
  const sale = candidates.reduce<SaleStatus | undefined>(
    (latest, candidate) => (!latest || candidate.saleDate > latest.saleDate ? candidate : latest),
    undefined,
  );
  if (!sale) return { verification: 'PENDING', sale: undefined };
  return sale.status === 'CANCELLED'
    ? { verification: 'VERIFIED', sale }
    : { verification: 'CONTRADICTED', sale };
}
