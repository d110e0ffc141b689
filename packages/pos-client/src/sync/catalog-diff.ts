// diffCatalog: what changed between two catalog snapshots; an employee gone from the list is a departure.
import { isDeepStrictEqual } from 'node:util';
import type { Employee } from '@fin/core';
import { type CatalogSnapshot, recordKeys } from './catalog-snapshot.js';

export interface RecordDiff<T> {
  added: T[];
  changed: { before: T; after: T }[];
  removed: T[];
}

type Kind = keyof typeof recordKeys;
type RecordOf<K extends Kind> = CatalogSnapshot[K][number];

export type CatalogDiff = { [K in Kind]: RecordDiff<RecordOf<K>> } & {
  /**
   * Employees in `previous` and absent today: departures. The spec has no termination event or flag
   * (section 6), so absence from the daily list is the only signal.
   */
  departures: Employee[];
};

/** JSON view of a record: a key holding `undefined` and an absent key compare alike, as after storage. */
const plain = (record: unknown) => JSON.parse(JSON.stringify(record)) as unknown;

function diffRecords<T>(
  before: readonly T[],
  after: readonly T[],
  key: (record: T) => string,
): RecordDiff<T> {
  const old = new Map(before.map((record) => [key(record), record]));
  const diff: RecordDiff<T> = { added: [], changed: [], removed: [] };
  for (const record of after) {
    const previous = old.get(key(record));
    old.delete(key(record));
    if (previous === undefined) diff.added.push(record);
    else if (!isDeepStrictEqual(plain(previous), plain(record)))
      diff.changed.push({ before: previous, after: record });
  }
  diff.removed = [...old.values()];
  return diff;
}

/**
 * Added, changed and removed records of each kind. Without `previous`, everything is added. Plans,
 * products and services are compared only for the stores `next` covers, so a sync of some stores
 * never reports the others' catalog as removed.
 */
export function diffCatalog(previous: CatalogSnapshot | undefined, next: CatalogSnapshot): CatalogDiff {
  const covered = new Set(next.storeIds);
  const scoped = <T extends { storeId: string }>(records: readonly T[] = []) =>
    records.filter((record) => covered.has(record.storeId));
  const employees = diffRecords(previous?.employees ?? [], next.employees, recordKeys.employees);
  return {
    employees,
    stores: diffRecords(previous?.stores ?? [], next.stores, recordKeys.stores),
    plans: diffRecords(scoped(previous?.plans), next.plans, recordKeys.plans),
    products: diffRecords(scoped(previous?.products), next.products, recordKeys.products),
    services: diffRecords(scoped(previous?.services), next.services, recordKeys.services),
    departures: employees.removed,
  };
}
