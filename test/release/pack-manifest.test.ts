// The pack lifecycle script under `pnpm -r pack`, which runs the packages' prepacks side by side: each reads every manifest while the others rewrite theirs.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedPackages, repositoryRoot } from './packed-install.js';

const run = promisify(execFile);
let copy = '';
const manifestPath = (name: string) => join(copy, 'packages', name, 'package.json');
const lifecycle = (name: string, step: 'prepack' | 'postpack') =>
  run(process.execPath, [join(copy, 'scripts', 'pack-manifest.mjs'), step], {
    cwd: join(copy, 'packages', name),
  });

// A copy of the script and the five manifests, in the workspace's layout: the committed ones are never rewritten here.
beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), 'fin-pack-manifest-'));
  await mkdir(join(copy, 'scripts'));
  await cp(join(repositoryRoot, 'scripts', 'pack-manifest.mjs'), join(copy, 'scripts', 'pack-manifest.mjs'));
  for (const name of publishedPackages) {
    await mkdir(join(copy, 'packages', name), { recursive: true });
    await cp(join(repositoryRoot, 'packages', name, 'package.json'), manifestPath(name));
  }
});

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe('scripts/pack-manifest.mjs', () => {
  it('five prepacks side by side, 30 times: each reads whole manifests, writes released ranges, and postpack restores the committed text', async () => {
    const committed = new Map<string, string>();
    for (const name of publishedPackages) committed.set(name, await readFile(manifestPath(name), 'utf8'));
    for (let round = 0; round < 30; round++) {
      const prepacks = await Promise.allSettled(publishedPackages.map((name) => lifecycle(name, 'prepack')));
      expect(
        prepacks.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : [])),
        `round ${round}`,
      ).toEqual([]);
      for (const name of publishedPackages) {
        const packed = JSON.parse(await readFile(manifestPath(name), 'utf8'));
        for (const field of ['dependencies', 'peerDependencies', 'devDependencies'])
          for (const range of Object.values<string>(packed[field] ?? {}))
            expect(range, `${name} ${field}`).not.toMatch(/^workspace:/);
      }
      await Promise.all(publishedPackages.map((name) => lifecycle(name, 'postpack')));
      for (const name of publishedPackages)
        expect(await readFile(manifestPath(name), 'utf8'), name).toBe(committed.get(name));
    }
  }, 120_000);
});
