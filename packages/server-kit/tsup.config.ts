// Build of @fin/server-kit: ESM, CJS (p-retry bundled: it ships ESM only) and type declarations.
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild(
    {
      index: 'src/index.ts',
      postgres: 'src/postgres/index.ts',
      testing: 'src/testing/index.ts',
      fastify: 'src/adapters/fastify.ts',
      express: 'src/adapters/express.ts',
      rules: 'src/rules/index.ts',
      // The ports and their records, for those who implement one (a custom Store): `@fin/server-kit/store`.
      store: 'src/ports/index.ts',
      'migrate-cli': 'src/postgres/cli.ts',
    },
    // p-retry (webhook attempts' record writes) ships ESM only: bundled into the CommonJS build, as core does.
    ['p-retry', 'is-network-error'],
  ),
);
