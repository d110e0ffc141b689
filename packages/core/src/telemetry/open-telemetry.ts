// The optional peer @opentelemetry/api, loaded once on first use; absent, every instrument is a no-op.
import type * as OpenTelemetryApi from '@opentelemetry/api';

export type OpenTelemetry = typeof OpenTelemetryApi;

let loaded: OpenTelemetry | null | undefined;

/**
 * Synchronous, so a span can start with the call: `createRequire` from this module (tsup turns
 * `import.meta.url` into the file's URL in the CJS build), reached through `process.getBuiltinModule` so no
 * `node:module` import reaches a bundle that has no Node. A bare `require` would not do: the ESM build
 * replaces it with a stub that throws. The API keeps its registered providers on a global, so this copy
 * sees those of the host's copy, ESM or CJS.
 */
function load(): OpenTelemetry | null {
  try {
    const requireFrom = globalThis.process?.getBuiltinModule?.('node:module')?.createRequire(import.meta.url);
    return (requireFrom?.('@opentelemetry/api') as OpenTelemetry | undefined) ?? null;
  } catch {
    return null;
  }
}

/** The OpenTelemetry API when the host installed it, else `undefined` (tried once per process). */
export function openTelemetry(): OpenTelemetry | undefined {
  if (loaded === undefined) loaded = load();
  return loaded ?? undefined;
}
