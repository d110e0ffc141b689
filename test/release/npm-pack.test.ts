// Release with npm alone: `npm pack` of each package writes released ranges for its workspace: ones (prepack), and a fresh folder installs the five tarballs with `npm install` and runs a whole sale.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureBuilt,
  npmInstall,
  publishedPackages,
  repositoryRoot,
  runSmoke,
  whilePacking,
} from './packed-install.js';
import { expectedJourney } from './smoke-expected.js';

const run = promisify(execFile);
const manifestOf = async (folder: string) => JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'));
const manifestText = (name: string) =>
  readFile(join(repositoryRoot, 'packages', name, 'package.json'), 'utf8');
const committed = new Map<string, string>();
const left = new Map<string, string>();
let folder = '';

beforeAll(async () => {
  await ensureBuilt();
  folder = await mkdtemp(join(tmpdir(), 'fin-npm-packed-'));
  // npm alone, one package at a time, as a newcomer without pnpm would release them; the manifests read
  // before and after while no other test packs.
  await whilePacking(async () => {
    for (const name of publishedPackages) committed.set(name, await manifestText(name));
    for (const name of publishedPackages)
      await run('npm', ['pack', '--silent', '--pack-destination', folder], {
        cwd: join(repositoryRoot, 'packages', name),
        maxBuffer: 32 * 1024 * 1024,
      });
    for (const name of publishedPackages) left.set(name, await manifestText(name));
  });
  const tarballs = (await readdir(folder)).filter((file) => file.endsWith('.tgz'));
  await writeFile(
    join(folder, 'package.json'),
    `${JSON.stringify({ name: 'fin-npm-consumer', private: true })}\n`,
  );
  for (const fixture of ['journey.mjs', 'journey-checks.cjs', 'cart.cjs'])
    await cp(fileURLToPath(new URL(`./fixtures/${fixture}`, import.meta.url)), join(folder, fixture));
  await npmInstall(
    folder,
    tarballs.map((t) => `./${t}`),
  );
}, 600_000);

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('FIT-7: npm-packed tarballs', () => {
  it.each(publishedPackages)(
    '@fin/%s: the packed manifest has released ranges; the committed one is left as it was',
    async (name) => {
      const packed = await manifestOf(join(folder, 'node_modules', '@fin', name));
      for (const field of ['dependencies', 'peerDependencies', 'devDependencies'])
        for (const [dependency, range] of Object.entries<string>(packed[field] ?? {})) {
          expect(range, `${field}.${dependency}`).not.toMatch(/^workspace:/);
          if (dependency.startsWith('@fin/')) expect(range).toMatch(/^\^\d+\.\d+\.\d+/);
        }
      expect(left.get(name)).toBe(committed.get(name));
    },
  );

  it('install with npm install and run a whole sale (authorize, confirm, cancel) over loopback', async () => {
    const { entry, results } = await runSmoke(folder, 'journey.mjs');
    expect(entry).toMatch(/node_modules\/@fin\/server-kit\/dist\/index\.js$/);
    expect(results).toEqual(expectedJourney);
  });
});
