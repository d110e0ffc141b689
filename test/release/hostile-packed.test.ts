// Issue 24 acceptance on what ships: redirect, drip under forced GC, huge body and NUL against the packed packages.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, installPackedPackages } from './packed-install.js';

const run = promisify(execFile);
let folder: string;

beforeAll(async () => {
  await ensureBuilt();
  folder = await installPackedPackages();
}, 300_000);

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('DESIGN 18/19: the packed packages, installed outside the workspace, bound a hostile partner', () => {
  it('redirect refused and nothing re-sent; drip ended by the deadline under forced GC; 10 MiB body refused; NUL record refused', async () => {
    // Without the workspace's NODE_PATH, as in a user's folder; `--expose-gc` so the script forces collections.
    const { NODE_PATH: _workspaceModules, ...env } = process.env;
    const { stdout } = await run(process.execPath, ['--expose-gc', resolve(folder, 'hostile.mjs')], {
      cwd: folder,
      env,
    });
    const { entry, results } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
    expect(entry).toContain(folder);
    expect(results).toEqual({
      redirectToken: {
        name: 'FinRedirectError',
        code: 'redirect_refused',
        status: 307,
        location: results.recorderOrigin,
      },
      redirectSearch: {
        name: 'FinRedirectError',
        code: 'redirect_refused',
        status: 307,
        location: results.recorderOrigin,
      },
      recorderOrigin: expect.stringMatching(/^http:\/\/127\.0\.0\.2:\d+$/),
      drip: { name: 'FinTimeoutError', code: 'timeout', scope: 'deadline' },
      huge: { name: 'FinResponseTooLargeError', code: 'response_too_large', limit: 4 * 1024 * 1024 },
      hugeReleased: true,
      nulRefused: ['stores.name'],
      nulJob: { ok: true, refused: ['name'] },
      recorded: [],
    });
  }, 120_000);
});
