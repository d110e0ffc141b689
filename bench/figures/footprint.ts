// Footprint: what each client weighs once a bundler ships it (esbuild, minified, gzipped) and how long a cold import takes.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { commandOf, type Figure, type FigureOptions, type Row } from '../lib/figure.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = (pkg: string, file: string) => `${root}packages/${pkg}/dist/${file}`;

/** The clients a POS vendor or the financing team ships, and the class they import from each. */
const clients = [
  { name: '@fin/authorization-client', pkg: 'authorization-client', main: 'AuthorizationClient' },
  { name: '@fin/pos-client', pkg: 'pos-client', main: 'PosClient' },
] as const;

/** Every package entry, for cold import time. */
const entries = [
  { name: '@fin/core', pkg: 'core', file: 'index' },
  { name: '@fin/authorization-client', pkg: 'authorization-client', file: 'index' },
  { name: '@fin/pos-client', pkg: 'pos-client', file: 'index' },
  { name: '@fin/server-kit', pkg: 'server-kit', file: 'index' },
  { name: '@fin/server-kit/postgres', pkg: 'server-kit', file: 'postgres' },
] as const;

const COLD_IMPORT_RUNS = 7;
const QUICK_COLD_IMPORT_RUNS = 3;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Bundles `code` (an import of the built ESM entry) with every dependency, minified, and gzips it. */
async function shippedSize(code: string, resolveDir: string): Promise<{ minified: number; gzipped: number }> {
  const result = await build({
    stdin: { contents: code, resolveDir, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0]!.contents;
  return { minified: bytes.byteLength, gzipped: gzipSync(bytes, { level: 9 }).byteLength };
}

/** Median milliseconds of `import()` (ESM) or `require()` (CJS) of `file`, each in a fresh node process. */
function coldImportMs(file: string, format: 'esm' | 'cjs', runs: number): number {
  const load =
    format === 'esm' ? `await import(${JSON.stringify(file)})` : `require(${JSON.stringify(file)})`;
  const script = `const t = performance.now(); ${load}; process.stdout.write(String(performance.now() - t));`;
  const args =
    format === 'esm' ? ['--input-type=module', '-e', script] : ['--input-type=commonjs', '-e', script];
  const times = Array.from({ length: runs }, () =>
    Number(execFileSync(process.execPath, args, { cwd: root })),
  );
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function run(options: FigureOptions): Promise<Row[]> {
  const command = commandOf('footprint', options);
  const missing = entries.filter(({ pkg, file }) => !existsSync(dist(pkg, `${file}.js`)));
  if (missing.length > 0)
    throw new Error(`build first (pnpm build): no dist for ${missing.map((m) => m.name)}`);
  const rows: Row[] = [];
  for (const client of clients) {
    const entry = JSON.stringify(dist(client.pkg, 'index.js'));
    const resolveDir = `${root}packages/${client.pkg}`;
    const whole = await shippedSize(`export * from ${entry};`, resolveDir);
    const main = await shippedSize(`export { ${client.main} } from ${entry};`, resolveDir);
    rows.push({
      figure: `${client.name} shipped size, every export`,
      measured: `${kib(whole.gzipped)} gzip (${kib(whole.minified)} min)`,
      command,
    });
    rows.push({
      figure: `${client.name} shipped size, ${client.main} only`,
      measured: `${kib(main.gzipped)} gzip (${kib(main.minified)} min)`,
      command,
    });
  }
  const runs = options.quick ? QUICK_COLD_IMPORT_RUNS : COLD_IMPORT_RUNS;
  for (const entry of entries) {
    const esm = coldImportMs(dist(entry.pkg, `${entry.file}.js`), 'esm', runs);
    const cjs = coldImportMs(dist(entry.pkg, `${entry.file}.cjs`), 'cjs', runs);
    rows.push({
      figure: `${entry.name} cold import (median of ${runs} fresh processes)`,
      measured: `ESM ${esm.toFixed(1)} ms, CJS ${cjs.toFixed(1)} ms`,
      command,
    });
  }
  return rows;
}

export const footprint: Figure = {
  name: 'footprint',
  title: 'Footprint: bundled, minified, gzipped size of each client; cold import time of each package',
  run,
};
