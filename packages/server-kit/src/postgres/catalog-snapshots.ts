// Catalog snapshots in PostgreSQL: the latest snapshot of each partner, as JSONB.
import type { JsonValue } from '../ports/records.js';
import type { CatalogSnapshotRecord } from '../ports/store.js';
import { type Queryable, query } from './sql.js';

export async function saveCatalogSnapshot(
  db: Queryable,
  input: { partnerId: string; snapshot: JsonValue; syncedAt: Date },
): Promise<void> {
  await query(
    db,
    `INSERT INTO fin_catalog_snapshots (partner_id, snapshot, synced_at) VALUES ($1, $2, $3)
     ON CONFLICT (partner_id) DO UPDATE SET snapshot = excluded.snapshot, synced_at = excluded.synced_at`,
    [input.partnerId, JSON.stringify(input.snapshot), input.syncedAt],
  );
}

export async function getCatalogSnapshot(
  db: Queryable,
  partnerId: string,
): Promise<CatalogSnapshotRecord | undefined> {
  const { rows } = await query<{ snapshot: JsonValue; synced_at: Date }>(
    db,
    'SELECT snapshot, synced_at FROM fin_catalog_snapshots WHERE partner_id = $1',
    [partnerId],
  );
  const row = rows[0];
  return row && { snapshot: row.snapshot, syncedAt: row.synced_at.toISOString() };
}
