// Issue 36 §5: the published .d.ts carry no bundler alias (`format$1`, `index$2`, `z$1`): every name reads as the API names it.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, publishedPackages, repositoryRoot } from './packed-install.js';

beforeAll(ensureBuilt, 600_000);

/** A name the declaration bundler (rollup-plugin-dts) made up to tell two clashing declarations apart. */
const BUNDLER_ALIAS = /\b\w+\$\d+\b/g;

/** Every declaration file under a package's dist/, at any depth. */
async function declarationFiles(pkg: string): Promise<string[]> {
  const dist = join(repositoryRoot, 'packages', pkg, 'dist');
  const entries = await readdir(dist, { recursive: true });
  return entries
    .filter((file) => file.endsWith('.d.ts') || file.endsWith('.d.cts'))
    .map((file) => join(dist, file));
}

/** `file:line name` for each bundler alias in a declaration file. */
async function aliasesIn(file: string): Promise<string[]> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  return lines.flatMap((line, index) =>
    [...new Set(line.match(BUNDLER_ALIAS) ?? [])].map(
      (name) => `${relative(repositoryRoot, file)}:${index + 1} ${name}`,
    ),
  );
}

describe('the published declarations have no bundler aliases (issue 36 §5)', () => {
  it.each(publishedPackages)('@fin/%s: no `name$N` identifier in dist/**/*.d.ts or .d.cts', async (pkg) => {
    const files = await declarationFiles(pkg);
    expect(files.length).toBeGreaterThan(0);
    const aliases = (await Promise.all(files.map(aliasesIn))).flat();
    expect(aliases).toEqual([]);
  });
});
