// The contract tools nobody here wrote (Redocly, Spectral, Prism): their CLIs found in node_modules, run by node, offline.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const documents = {
  partnerPos: resolve(root, 'docs/openapi/partner-pos.json'),
  salesAuthorization: resolve(root, 'docs/openapi/sales-authorization.json'),
} as const;

const require = createRequire(import.meta.url);

/** The JavaScript file of a package's `bin` entry, so no shell, `npx` or `pnpm` is needed to run it. */
function binOf(pkg: string, name: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  const file = bin[name];
  if (file === undefined) throw new Error(`${pkg} has no bin ${name}`);
  return resolve(dirname(manifest), file);
}

export const tools = {
  redocly: () => binOf('@redocly/cli', 'redocly'),
  spectral: () => binOf('@stoplight/spectral-cli', 'spectral'),
  prism: () => binOf('@stoplight/prism-cli', 'prism'),
};

/** No telemetry, no update check, no colour: the tools run offline and their output is read by the tests. */
export const toolEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  SCARF_ANALYTICS: 'false',
  DO_NOT_TRACK: '1',
};

/** Starts a tool's CLI under the current node; its output is collected for the test to read. */
export function startTool(bin: string, args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: toolEnv });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

/** Runs a tool's CLI to its end: exit code, stdout and stderr apart. */
export function runTool(
  bin: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: toolEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
  });
}
