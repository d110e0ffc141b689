// Issue 36 §3: the packed test kit in the runners POS vendors use (Jest 29 and 30 CommonJS, Vitest, node:test) and fin-sandbox.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify, stripVTControlCharacters } from 'node:util';
import { endpoints } from '@fin/core';
import { describe, expect, it } from 'vitest';
import { installRunner, usePackedInstall, userEnvironment } from './packed-install.js';

const run = promisify(execFile);

// msw installed beside the tarballs, as in a project that also uses the msw handlers: /testing must not load it.
const installed = usePackedInstall({ testing: true });

/** Runs `command` in `cwd` as a user's test script; a failing test rejects with the runner's output. */
const runTests = (cwd: string, command: string, args: string[]) =>
  run(command, args, { cwd, env: userEnvironment(), maxBuffer: 32 * 1024 * 1024 });

describe('issue 36 §3: the test kit in every runner, on the packed tarballs', () => {
  it.each(['^29.7.0', '^30.0.0'])(
    'Jest %s, default config: require("@fin/authorization-client/testing"), startSandbox, two sales with generateImei()',
    async (version) => {
      const name = `kit-jest${version.replace(/^\D*/, '').split('.')[0]}`;
      const runner = await installRunner(installed(), name, { jest: version }, 'kit-jest');
      const { stderr } = await runTests(runner, process.execPath, [
        join(runner, 'node_modules', 'jest', 'bin', 'jest.js'),
        '--ci',
      ]);
      expect(stderr).toMatch(/Tests:\s+2 passed, 2 total/);
    },
    600_000,
  );

  it('Vitest (ESM): the same two sales', async () => {
    const runner = await installRunner(installed(), 'kit-vitest-run', { vitest: '^4.0.0' }, 'kit-vitest');
    const { stdout } = await runTests(runner, process.execPath, [
      join(runner, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
    ]);
    expect(stripVTControlCharacters(stdout)).toMatch(/Tests\s+2 passed \(2\)/);
  }, 600_000);

  it('node:test (CommonJS): the same two sales', async () => {
    const folder = join(installed(), 'kit-node-test');
    const { stdout } = await runTests(folder, process.execPath, [
      '--test',
      '--test-reporter=tap',
      'sandbox.test.cjs',
    ]);
    expect(stdout).toMatch(/# pass 2\n# fail 0/);
  });

  it('fin-sandbox --json prints baseUrl and credentials, serves them, and stops on SIGTERM', async () => {
    const bin = join(installed(), 'node_modules', '.bin', 'fin-sandbox');
    const child = spawn(bin, ['--json'], { cwd: installed(), env: userEnvironment() });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const { baseUrl, clientId, clientSecret } = JSON.parse(line);
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const token = await fetch(`${baseUrl}${endpoints.tokenPath}`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}` },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      });
      expect(token.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }, 60_000);
});
