// Migration 4 (issue 30): the stock holds the service made at partner POSes, with the holds worker's schedule and lease.
import type { Migration } from './migration.js';

/**
 * One row per hold, keyed by partner and reservation id. `record` is the whole HoldRecord (JSONB, read
 * back through its schema); the columns beside it are what the worker's listing and the compare-and-set
 * need.
 */
export const stockHolds: Migration = {
  version: 4,
  name: 'stock holds',
  sql: /* sql */ `
CREATE TABLE fin_stock_holds (
  partner_id        text NOT NULL,
  reservation_id    text NOT NULL,
  proposal_id       text,
  next_check_at     timestamptz,
  version           integer NOT NULL,
  worker_lease_owner text,
  worker_lease_until timestamptz,
  record            jsonb NOT NULL,
  PRIMARY KEY (partner_id, reservation_id)
);
CREATE INDEX fin_stock_holds_due ON fin_stock_holds (next_check_at) WHERE next_check_at IS NOT NULL;
`,
};
