// Build of @fin/pos-check: ESM, CJS (oauth4webapi bundled: it ships ESM only) and type declarations of the runners, and the fin-pos-check command.
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild({ index: 'src/index.ts', 'check-cli': 'src/cli.ts' }, ['oauth4webapi']),
);
