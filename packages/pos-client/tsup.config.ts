// Build of @fin/pos-client: ESM, CJS and type declarations, and the fin-pos-check command.
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild({ index: 'src/index.ts', testing: 'src/testing/index.ts', 'check-cli': 'src/check/cli.ts' }),
);
