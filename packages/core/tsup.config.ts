// Build of @fin/core: ESM, CJS (ky, p-retry and uuid bundled: they ship ESM only) and type declarations of the root and the `openapi` and `transport` subpaths.
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

const entries = {
  index: 'src/index.ts',
  openapi: 'src/openapi/index.ts',
  transport: 'src/transport/index.ts',
};

// Declarations one entry at a time: built together, rollup-plugin-dts moves the OAuth schema types the
// three share into a chunk and re-exports them from the `schemas` namespace as values (`declare const
// index_Scope: typeof Scope`), which a consumer without skipLibCheck sees as TS2693 errors.
export default defineConfig([
  ...packageBuild(entries, ['ky', 'p-retry', 'uuid']).map((format) => ({ ...format, dts: false })),
  ...Object.entries(entries).flatMap(([name, path]) =>
    packageBuild({ [name]: path }).map((format) => ({ ...format, dts: { only: true } })),
  ),
]);
