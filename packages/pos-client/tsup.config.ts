// Build of @fin/pos-client: ESM, CJS and type declarations of the client and its /testing kit.
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(packageBuild({ index: 'src/index.ts', testing: 'src/testing/index.ts' }));
