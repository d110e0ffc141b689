// The OpenAPI documents committed in docs/openapi are what `pnpm openapi` generates from today's schemas.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { generatedDocs } from '../../../scripts/generated-docs.js';

const root = new URL('../../../', import.meta.url);
const openApiDocs = generatedDocs.filter(({ path }) => path.startsWith('docs/openapi/'));

describe('docs/openapi', () => {
  it('holds both APIs', () => {
    expect(openApiDocs.map(({ path }) => path)).toEqual([
      'docs/openapi/partner-pos.json',
      'docs/openapi/sales-authorization.json',
    ]);
  });

  it.each(openApiDocs)('$path is not stale (regenerate with `pnpm openapi`)', async ({ path, render }) => {
    const committed = await readFile(new URL(path, root), 'utf8');
    expect(committed === render(), `${path} is stale: run \`pnpm openapi\` and commit it`).toBe(true);
  });
});
