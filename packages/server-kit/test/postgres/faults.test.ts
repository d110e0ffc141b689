// Issues 19 and 23, exactly once under faults, from the sources: service processes on one PostgreSQL, faults injected mid-load, every key retried to its one answer.
import { usePostgres } from '../../../../test/support/postgres.js';
import { describeFaultSuite } from './support/fault-suite.js';
import { startInstance } from './support/instances.js';

// The packed packages meet the longer faults on PostgreSQL 15 (test/release/faults.packed.test.ts).
describeFaultSuite({
  build: 'sources',
  server: usePostgres(),
  start: startInstance,
  stoppedMs: 2_000,
  stallMs: 3_000,
});
