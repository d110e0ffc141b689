// Issue 23 point 8: the PostgreSQL fault suite against what users install: the packed tarballs installed outside the workspace, two service processes on Debian's PostgreSQL 15.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { describeFaultSuite } from '../../packages/server-kit/test/postgres/support/fault-suite.js';
import {
  packedInstanceEntry,
  startInstance,
} from '../../packages/server-kit/test/postgres/support/instances.js';
import { usePostgres } from '../support/postgres.js';
import { ensureBuilt, installPackedPackages } from './packed-install.js';

let folder: string | undefined;
let entry: string | undefined;
beforeAll(async () => {
  await ensureBuilt();
  folder = await installPackedPackages();
  entry = await packedInstanceEntry(folder);
}, 300_000);
afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

// The faults at their length: PostgreSQL down 30 s, backends stalled 10 s (the sources meet 2 s and 3 s).
describeFaultSuite({
  build: 'packed packages',
  server: usePostgres(15),
  start: (env) => startInstance(env, { from: entry }),
  stoppedMs: 30_000,
  stallMs: 10_000,
});
