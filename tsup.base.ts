// Shared tsup settings: every package ships ESM + CJS + .d.ts for Node 20.19+.
import type { Options } from 'tsup';

export const packageBuild = (entry: Record<string, string>): Options => ({
  entry,
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // Shared chunks: a module two entries import is one module at run time (one class per concept, decision SH-1).
  splitting: true,
  treeshake: true,
});
