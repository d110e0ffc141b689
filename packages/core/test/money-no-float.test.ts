// Money is integer cents everywhere: no source file of the SDKs rounds or parses through a float.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() && /\.[cm]?ts$/.test(entry.name) && !entry.parentPath.includes('node_modules'),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}

it('no parseFloat, toFixed or Math.round in packages/*/src or examples (spec section 4: floating point is forbidden)', () => {
  const dirs = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name, 'src'));
  const files = [...dirs, join(root, 'examples')].flatMap((dir) => {
    try {
      return sources(dir);
    } catch {
      return [];
    }
  });
  expect(files).toContain(join(root, 'packages/core/src/money/parse.ts'));
  const offenders = files.filter((file) =>
    /\bparseFloat\b|\.toFixed\(|\bMath\.round\b/.test(readFileSync(file, 'utf8')),
  );
  expect(offenders).toEqual([]);
});
