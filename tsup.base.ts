// Shared tsup settings: every package ships ESM + CJS + .d.ts for Node 20.19+, CJS loadable without require(esm).
import { rmSync } from 'node:fs';
import type { Options } from 'tsup';

/**
 * One config per format, both from the same entries. ESM keeps every dependency external; CJS bundles
 * `esmOnlyDependencies` (those that ship no CommonJS: ky, p-retry, uuid), so `require()` never meets ESM
 * and the package loads under Jest 29/30 and CJS bundlers as under Node (decision SH-4).
 */
export const packageBuild = (
  entry: Record<string, string>,
  esmOnlyDependencies: string[] = [],
): Options[] => {
  // Emptied here, once, before the configs build in parallel: tsup's `clean` per config would race them.
  rmSync('dist', { recursive: true, force: true });
  const shared: Options = {
    entry,
    dts: true,
    sourcemap: true,
    clean: false,
    target: 'node20',
    // Shared chunks: a module two entries import is one module at run time (one class per concept, decision SH-1).
    splitting: true,
    treeshake: true,
  };
  return [
    { ...shared, format: ['esm'] },
    { ...shared, format: ['cjs'], noExternal: esmOnlyDependencies },
  ];
};
