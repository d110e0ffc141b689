// Build of @fin/pos-client: ESM, CJS (oauth4webapi bundled: it ships ESM only) and type declarations of the client and its /testing kit.
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild(
    { index: 'src/index.ts', testing: 'src/testing/index.ts' },
    // oauth4webapi ships ESM only: bundled into the CommonJS build, as core bundles ky (DESIGN 18).
    ['oauth4webapi'],
  ),
);
