// Build of @fin/authorization-client: ESM, CJS (uuid bundled: it ships ESM only) and type declarations.
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild(
    {
      index: 'src/index.ts',
      node: 'src/node/index.ts',
      testing: 'src/testing/index.ts',
      'testing-msw': 'src/testing/msw.ts',
    },
    ['uuid'],
  ),
);
