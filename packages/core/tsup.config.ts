// Build of @fin/core: ESM, CJS (ky, p-retry and uuid bundled: they ship ESM only) and type declarations of the root and its subpaths (`errors`, `openapi`, `schemas`, `transport`, `webhooks`); the mutual-TLS agent per runtime behind `#tls-agent`.
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

const entries = {
  index: 'src/index.ts',
  errors: 'src/errors/index.ts',
  openapi: 'src/openapi/index.ts',
  schemas: 'src/schemas/index.ts',
  transport: 'src/transport/index.ts',
  webhooks: 'src/webhooks/index.ts',
};

/**
 * The two builds of the mutual-TLS agent, chosen by the consumer's runtime through package.json `imports`
 * (`#tls-agent`: `node` gets undici's Agent, every other runtime the refusal), decision EDGE-1.
 */
const tlsAgents = {
  'tls-agent-node': 'src/transport/tls-agent.ts',
  'tls-agent-default': 'src/transport/tls-agent-refused.ts',
};

/** The transport's import of `./tls-agent.js` left to the consumer as `#tls-agent`, so no bundler for a browser or worker reaches undici. */
const tlsAgentByRuntime: Plugin = {
  name: 'tls-agent-by-runtime',
  setup(build) {
    build.onResolve({ filter: /^\.\/tls-agent\.js$/ }, (args) =>
      args.kind === 'entry-point' ? undefined : { path: '#tls-agent', external: true },
    );
  },
};

// Declarations one entry at a time: built together, rollup-plugin-dts moves the OAuth schema types the
// three share into a chunk and re-exports them from the `schemas` namespace as values (`declare const
// index_Scope: typeof Scope`), which a consumer without skipLibCheck sees as TS2693 errors.
export default defineConfig([
  ...packageBuild({ ...entries, ...tlsAgents }, ['ky', 'p-retry', 'uuid']).map((format) => ({
    ...format,
    dts: false,
    esbuildPlugins: [tlsAgentByRuntime],
  })),
  ...Object.entries(entries).flatMap(([name, path]) =>
    packageBuild({ [name]: path }).map((format) => ({ ...format, dts: { only: true } })),
  ),
]);
