// Release, issue 23 §2 and §8: the CommonJS build of the installed packages loads under Node without require(esm), Jest 29, Jest 30 and an esbuild bundle.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { installRunner, runSmoke, usePackedInstall, userEnvironment } from './packed-install.js';
import { expected, expectedJourney } from './smoke-expected.js';

const run = promisify(execFile);

const installed = usePackedInstall();

/** Runs fixtures/jest/smoke.test.js with Jest `version` installed beside the packages, default config. */
async function jestSmoke(version: string) {
  const name = `jest${version.replace(/^\D*/, '').split('.')[0]}`;
  const runner = await installRunner(installed(), name, { jest: version }, 'jest');
  const output = join(runner, 'results.json');
  await run(process.execPath, [join(runner, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci'], {
    cwd: runner,
    env: { ...userEnvironment(), FIN_SMOKE_OUT: output },
    maxBuffer: 32 * 1024 * 1024,
  });
  return JSON.parse(await readFile(output, 'utf8'));
}

describe('issue 23: CommonJS that loads anywhere users run it', () => {
  it('Node require() of every root entry and /postgres with require(esm) switched off: no ESM reached', async () => {
    const { results } = await runSmoke(installed(), 'smoke.cjs', ['--no-experimental-require-module']);
    expect(results).toEqual(expected);
  });

  it.each(['^29.7.0', '^30.0.0'])(
    'Jest %s, default config: every entry requires, and a whole sale journey runs over a loopback service',
    async (version) => {
      const results = await jestSmoke(version);
      expect(results).toEqual({ checks: expected, journey: expectedJourney });
    },
    600_000,
  );

  it('an esbuild CommonJS bundle of every root entry and /postgres runs from its one file, require(esm) off', async () => {
    await build({
      absWorkingDir: installed(),
      entryPoints: ['smoke.cjs'],
      outfile: join(installed(), 'bundle', 'app.cjs'),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      // pg's optional native binding, which pg itself only tries at run time.
      external: ['pg-native'],
      logLevel: 'silent',
    });
    // Every @fin entry inside the bundle: nothing of ours left to require at run time.
    expect(await readFile(join(installed(), 'bundle', 'app.cjs'), 'utf8')).not.toMatch(/require\(["']@fin\//);
    const { results } = await runSmoke(installed(), 'bundle/app.cjs', ['--no-experimental-require-module']);
    expect(results).toEqual(expected);
  });
});
