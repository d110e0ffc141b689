// Issue 23 point 8: the SIGTERM drain of examples/financing-service run on the packed tarballs installed outside the workspace, on Debian's PostgreSQL 15.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import {
  copyExampleInto,
  describeSigtermDrain,
} from '../../examples/financing-service/test/sigterm-drain.js';
import { usePostgres } from '../support/postgres.js';
import { ensureBuilt, installPackedPackages } from './packed-install.js';

let installed: string | undefined;
let folder: string | undefined;
beforeAll(async () => {
  await ensureBuilt();
  // The example wires the simulated partner's client from the `/testing` entries: msw beside them.
  installed = await installPackedPackages({ testing: true });
  folder = await copyExampleInto(installed);
}, 300_000);
afterAll(async () => {
  if (installed) await rm(installed, { recursive: true, force: true });
});

describeSigtermDrain(
  {
    name: 'packed packages',
    folder: () => {
      if (!folder) throw new Error('the packed packages are installed in beforeAll');
      return folder;
    },
  },
  usePostgres(15),
);
