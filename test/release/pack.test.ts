// Release: each package packed as it would be published installs outside the workspace and runs, ESM and CJS.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { publishedPackages, runSmoke, tarballFiles, usePackedInstall } from './packed-install.js';
import { expected, expectedJourney } from './smoke-expected.js';

const installed = usePackedInstall();

const manifest = async (name: string) =>
  JSON.parse(await readFile(join(installed(), 'node_modules', '@fin', name, 'package.json'), 'utf8'));

describe('packed packages', () => {
  it.each(publishedPackages)(
    '@fin/%s ships dist, its bin launchers, README.md, LICENSE and package.json, no sources or tests',
    async (name) => {
      const files = await tarballFiles(installed(), name);
      expect(
        files.filter((file) => !/^(dist\/.+|bin\/[^/]+\.js|README\.md|LICENSE|package\.json)$/.test(file)),
      ).toEqual([]);
      expect(files).toEqual(
        expect.arrayContaining([
          'README.md',
          'LICENSE',
          'dist/index.js',
          'dist/index.cjs',
          'dist/index.d.ts',
          'dist/index.d.cts',
        ]),
      );
    },
  );

  it.each(publishedPackages)(
    '@fin/%s states the Node range it supports and depends on released versions only',
    async (name) => {
      const pkg = await manifest(name);
      expect(pkg.engines).toEqual({ node: '>=20.19.0' });
      for (const range of Object.values<string>(pkg.dependencies ?? {}))
        expect(range).not.toMatch(/^workspace:/);
    },
  );

  it('fin-server-kit-migrate runs from the installed tarball (its launcher loads the built command)', async () => {
    const bin = join(installed(), 'node_modules', '.bin', 'fin-server-kit-migrate');
    const { stdout } = await promisify(execFile)(bin, ['--help']);
    expect(stdout).toContain('Usage: fin-server-kit-migrate');
  });

  it('fin-pos-check runs from the installed tarball (its launcher loads the built command)', async () => {
    const bin = join(installed(), 'node_modules', '.bin', 'fin-pos-check');
    const { stdout } = await promisify(execFile)(bin, ['--help']);
    expect(stdout).toContain('Usage: fin-pos-check');
  });

  it('installs @fin/* dependencies from the packed tarballs, never a registry copy', async () => {
    const versions = Object.fromEntries(
      await Promise.all(publishedPackages.map(async (name) => [name, (await manifest(name)).version])),
    );
    for (const name of publishedPackages) {
      const pkg = await manifest(name);
      for (const [dependency, range] of Object.entries<string>(pkg.dependencies ?? {})) {
        if (!dependency.startsWith('@fin/')) continue;
        expect(range, `${name} -> ${dependency}`).toBe(`^${versions[dependency.slice('@fin/'.length)]}`);
      }
      expect(existsSync(join(installed(), 'node_modules', '@fin', name, 'node_modules', '@fin'))).toBe(false);
    }
  });

  it('the ESM entry points import and answer the smoke calls', async () => {
    const { entry, results } = await runSmoke(installed(), 'smoke.mjs');
    expect(entry).toMatch(/node_modules\/@fin\/core\/dist\/index\.js$/);
    expect(results).toEqual(expected);
  });

  it('the CJS entry points require and answer the smoke calls (the ESM-only dependencies bundled into the CJS build)', async () => {
    const { entry, results } = await runSmoke(installed(), 'smoke.cjs');
    expect(entry).toMatch(/node_modules\/@fin\/core\/dist\/index\.cjs$/);
    expect(results).toEqual(expected);
  });
  it.each([
    ['ESM', 'journey.mjs', /node_modules\/@fin\/server-kit\/dist\/index\.js$/],
    ['CJS', 'journey.cjs', /node_modules\/@fin\/server-kit\/dist\/index\.cjs$/],
  ])(
    'a whole sale journey in %s: authorize (replayed by its key), confirm, cancel over loopback HTTP',
    async (_, script, built) => {
      const { entry, results } = await runSmoke(installed(), script);
      expect(entry).toMatch(built);
      expect(results).toEqual(expectedJourney);
    },
  );
});
