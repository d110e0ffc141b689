// Migration 3: how long an unfinished idempotency claim's holder is known alive (renewed by its heartbeat), so a dead holder's key frees in seconds.
import type { Migration } from './migration.js';

/**
 * `alive_until` is set by the claim and pushed forward by the holder's heartbeat (`claim-heartbeat.ts`);
 * an unfinished claim whose `alive_until` has passed may be taken over although its lease has not. Rows
 * without it (claimed by an older release) keep the lease rule alone.
 */
export const claimLiveness: Migration = {
  version: 3,
  name: 'idempotency claim liveness',
  sql: /* sql */ `
ALTER TABLE fin_idempotency_keys ADD COLUMN alive_until timestamptz;
`,
};
