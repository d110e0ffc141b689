// Partner records screened by DESIGN 17 before any store sees them: one with text no store can hold is refused, named.
import { cpf, schemas } from '@fin/core';

/** The lists the sync reads. */
export type SyncResource = 'employees' | 'stores' | 'plans' | 'products' | 'services';

/**
 * A partner record the sync left out: a string in it holds NUL or a lone UTF-16 surrogate (DESIGN 17),
 * which PostgreSQL cannot store. `field` is its path in the record; `key` names the record (an employee's
 * CPF masked, never whole).
 */
export interface RefusedRecord {
  resource: SyncResource;
  field: string;
  key: string;
  storeId?: string;
  planId?: string;
  sku?: string;
}

/** What names one record of each list: its id, or a masked CPF for an employee. */
function keyOf(resource: SyncResource, record: Record<string, unknown>): string {
  if (resource === 'employees') return cpf.mask(String(record.cpf));
  const id = record.storeId ?? record.planId ?? record.sku ?? record.serviceId;
  return String(resource === 'stores' ? record.storeId : id);
}

/** The records every store can hold; each other one is pushed to `refused`, naming its field. */
export function screenRecords<T extends object>(
  resource: SyncResource,
  scope: { storeId?: string; planId?: string; sku?: string },
  records: readonly T[],
  refused: RefusedRecord[],
  onRefused?: (record: T) => void,
): T[] {
  return records.filter((record) => {
    const field = schemas.unstorableField(record);
    if (field === undefined) return true;
    refused.push({ resource, field, key: keyOf(resource, record as Record<string, unknown>), ...scope });
    onRefused?.(record);
    return false;
  });
}
