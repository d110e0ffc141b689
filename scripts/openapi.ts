// `pnpm openapi`: writes the OpenAPI documents and the error catalog page; `--check` only reports stale ones.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedDocs } from './generated-docs.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const stale: string[] = [];

for (const doc of generatedDocs) {
  const file = resolve(root, doc.path);
  const text = doc.render();
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === text) continue;
  stale.push(doc.path);
  if (check) continue;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

if (check && stale.length > 0) {
  process.stderr.write(`stale, run \`pnpm openapi\`: ${stale.join(', ')}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(stale.length > 0 ? `wrote ${stale.join(', ')}\n` : 'generated docs are up to date\n');
}
