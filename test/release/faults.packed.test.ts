// Issue 23 point 8 and issue 37 §2: the PostgreSQL fault suite against what users install: the packed tarballs installed outside the workspace, service processes on Debian's PostgreSQL 15.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { describeFaultSuite } from '../../packages/server-kit/test/postgres/support/fault-suite.js';
import {
  packedInstanceEntry,
  startInstance,
} from '../../packages/server-kit/test/postgres/support/instances.js';
import { describeWebhookFaults } from '../../packages/server-kit/test/postgres/support/webhook-faults.js';
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
const server = usePostgres(15);
describeFaultSuite({
  build: 'packed packages',
  server,
  start: (env) => startInstance(env, { from: entry }),
  stoppedMs: 30_000,
  stallMs: 10_000,
});

// Issue 37 §2: a stalled receiver beside a healthy one, and attempts recorded under a failing record write.
describeWebhookFaults({
  build: 'packed packages',
  server,
  start: (env) => startInstance(env, { from: entry }),
});
