// A partner's synced catalog as the store keeps it: what the catalog sync job writes and the service reads.
import type { Employee } from '@fin/core';
import type { CatalogSnapshot } from '@fin/pos-client';
import type { Store } from '../ports/store.js';

/** An employee gone from the partner's list (the spec's only sign of a departure), and the sync that noticed. */
export interface Departure {
  employee: Employee;
  detectedAt: string;
}

/** What the job keeps per partner: the catalog the service reads, and the departures on record. */
export interface PartnerCatalog {
  catalog: CatalogSnapshot;
  departures: Departure[];
}

const isPartnerCatalog = (value: unknown): value is PartnerCatalog =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as PartnerCatalog).catalog?.syncedAt === 'string' &&
  Array.isArray((value as PartnerCatalog).departures);

/** The partner's latest complete sync, or undefined when none is stored (or it is not one of ours). */
export async function readPartnerCatalog(
  store: Store,
  partnerId: string,
): Promise<PartnerCatalog | undefined> {
  const stored = await store.getCatalogSnapshot(partnerId);
  return stored && isPartnerCatalog(stored.snapshot) ? stored.snapshot : undefined;
}
