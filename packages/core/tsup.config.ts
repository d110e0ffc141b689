// Build of @fin/core: ESM, CJS and type declarations of the root and the `openapi` and `transport` subpaths.
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild({
    index: 'src/index.ts',
    openapi: 'src/openapi/index.ts',
    transport: 'src/transport/index.ts',
  }),
);
