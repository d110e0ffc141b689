// One test run for the whole workspace; packages resolve to their sources so tests need no build.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@fin\/core\/errors$/, replacement: src('./packages/core/src/errors/index.ts') },
      { find: /^@fin\/core\/openapi$/, replacement: src('./packages/core/src/openapi/index.ts') },
      { find: /^@fin\/core\/schemas$/, replacement: src('./packages/core/src/schemas/index.ts') },
      { find: /^@fin\/core\/transport$/, replacement: src('./packages/core/src/transport/index.ts') },
      { find: /^@fin\/core\/webhooks$/, replacement: src('./packages/core/src/webhooks/index.ts') },
      { find: /^@fin\/core$/, replacement: src('./packages/core/src/index.ts') },
      {
        find: /^@fin\/authorization-client\/node$/,
        replacement: src('./packages/authorization-client/src/node/index.ts'),
      },
      {
        find: /^@fin\/authorization-client\/testing\/msw$/,
        replacement: src('./packages/authorization-client/src/testing/msw.ts'),
      },
      {
        find: /^@fin\/authorization-client\/testing$/,
        replacement: src('./packages/authorization-client/src/testing/index.ts'),
      },
      {
        find: /^@fin\/authorization-client$/,
        replacement: src('./packages/authorization-client/src/index.ts'),
      },
      { find: /^@fin\/pos-check$/, replacement: src('./packages/pos-check/src/index.ts') },
      { find: /^@fin\/pos-client\/testing$/, replacement: src('./packages/pos-client/src/testing/index.ts') },
      { find: /^@fin\/pos-client$/, replacement: src('./packages/pos-client/src/index.ts') },
      {
        find: /^@fin\/server-kit\/postgres$/,
        replacement: src('./packages/server-kit/src/postgres/index.ts'),
      },
      { find: /^@fin\/server-kit\/rules$/, replacement: src('./packages/server-kit/src/rules/index.ts') },
      { find: /^@fin\/server-kit\/store$/, replacement: src('./packages/server-kit/src/ports/index.ts') },
      {
        find: /^@fin\/server-kit\/testing$/,
        replacement: src('./packages/server-kit/src/testing/index.ts'),
      },
      {
        find: /^@fin\/server-kit\/fastify$/,
        replacement: src('./packages/server-kit/src/adapters/fastify.ts'),
      },
      {
        find: /^@fin\/server-kit\/express$/,
        replacement: src('./packages/server-kit/src/adapters/express.ts'),
      },
      { find: /^@fin\/server-kit$/, replacement: src('./packages/server-kit/src/index.ts') },
    ],
  },
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'examples/**/*.test.ts',
      'test/**/*.test.ts',
      'docs/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
