// The `mutualTls` setting (spec v2.0, DESIGN 26): 'required' in production makes a client refuse to start without `tls`.
import { FinInputError } from '../errors/index.js';

/**
 * Whether mutual TLS is mandatory: `'optional'` (the default, sandboxes and the demo) or `'required'`
 * (production under spec v2.0). The same values on both clients and on `createFinancingService`.
 */
export type MutualTls = 'optional' | 'required';

const SETTINGS: readonly unknown[] = [undefined, 'optional', 'required'];

/** Whether `value` is a `MutualTls` (or absent): a misspelt 'required' must never mean optional. */
export const isMutualTls = (value: unknown): value is MutualTls | undefined => SETTINGS.includes(value);

/**
 * Refuses, when the client is made, a `mutualTls` that is not `'optional'` or `'required'`, and a client
 * whose `mutualTls` is `'required'` but has no `tls` (its certificate and key) to present.
 */
export function checkMutualTls(options: { mutualTls?: MutualTls; tls?: unknown }): void {
  if (!isMutualTls(options.mutualTls)) {
    throw new FinInputError({
      code: 'validation_error',
      details: [{ field: 'mutualTls', issue: "must be 'optional' or 'required'" }],
    });
  }
  if (options.mutualTls === 'required' && options.tls === undefined) {
    throw new FinInputError({
      code: 'validation_error',
      message:
        "mutualTls is 'required' but no tls option is given: pass tls: { cert, key, ca? } (docs/mtls.md)",
      details: [
        { field: 'tls', issue: "required when mutualTls is 'required' (the client certificate and key)" },
      ],
    });
  }
}
