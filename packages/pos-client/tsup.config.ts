// Build of @fin/pos-client: ESM, CJS (oauth4webapi bundled: it ships ESM only) and type declarations, and the fin-pos-check command.
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild(
    { index: 'src/index.ts', testing: 'src/testing/index.ts', 'check-cli': 'src/check/cli.ts' },
    // oauth4webapi ships ESM only: bundled into the CommonJS build, as core bundles ky (DESIGN 18).
    ['oauth4webapi'],
  ),
);
