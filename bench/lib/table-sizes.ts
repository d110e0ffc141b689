// Rows and bytes of every table of the PostgreSQL store (archives summed over their month partitions), sampled for the soak.
import type pg from 'pg';

/** The operational tables, then the record tables and their archives (docs/operations.md, lifecycle table). */
export const STORE_TABLES = [
  'fin_tokens',
  'fin_idempotency_keys',
  'fin_rate_limits',
  'fin_stock_holds',
  'fin_webhook_events',
  'fin_proposals',
  'fin_authorizations',
  'fin_contracts',
  'fin_catalog_snapshots',
  'fin_authorizations_archive',
  'fin_contracts_archive',
  'fin_proposals_archive',
] as const;

export interface TableSize {
  rows: number;
  /** `pg_total_relation_size` (heap, indexes, TOAST), summed over a partitioned table's partitions. */
  bytes: number;
}

export type SizeSample = { atSeconds: number; sizes: Record<string, TableSize> };

export async function tableSizes(db: pg.Client): Promise<Record<string, TableSize>> {
  const sizes: Record<string, TableSize> = {};
  for (const table of STORE_TABLES) {
    const { rows } = await db.query<{ rows: string; bytes: string }>(
      `SELECT (SELECT count(*) FROM ${table}) AS rows,
              greatest(pg_total_relation_size($1::regclass),
                (SELECT coalesce(sum(pg_total_relation_size(relid)), 0) FROM pg_partition_tree($1::regclass))) AS bytes`,
      [table],
    );
    sizes[table] = { rows: Number(rows[0]!.rows), bytes: Number(rows[0]!.bytes) };
  }
  return sizes;
}

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

/** One line per table, one column per sample: `rows / KiB`. Valid Markdown, like the bench's other tables. */
export function formatSizes(samples: readonly SizeSample[]): string {
  const head = ['table', ...samples.map((sample) => `t=${Math.round(sample.atSeconds)} s`)];
  const lines = STORE_TABLES.map((table) => [
    table,
    ...samples.map((sample) => `${sample.sizes[table]!.rows} / ${kib(sample.sizes[table]!.bytes)}`),
  ]);
  const widths = head.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const line = (values: readonly string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...lines.map(line)].join('\n');
}
