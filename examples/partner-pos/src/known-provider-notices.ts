// oidc-provider's two notices the example expects (docs/spec-decisions.md, SL-12): kept off the console while the provider loads and starts.
import type { PartnerOidcProvider, PartnerOidcProviderOptions } from './oidc/partner-oidc-provider.js';

/** The example runs on Node 20 (the issue checked a whole login there) and keeps its state in memory by design. */
const EXPECTED = [
  /^oidc-provider WARNING: Unsupported runtime/,
  /^oidc-provider WARNING: a quick start .*in-memory adapter/,
];

/**
 * Loads and starts the partner's provider with those two warnings held back; any other line of
 * `console.warn` in the meantime passes through unchanged.
 */
export async function startQuietly(options: PartnerOidcProviderOptions): Promise<PartnerOidcProvider> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && EXPECTED.some((notice) => notice.test(args[0] as string))) return;
    warn(...args);
  };
  try {
    const { startPartnerOidcProvider } = await import('./oidc/partner-oidc-provider.js');
    return await startPartnerOidcProvider(options);
  } finally {
    console.warn = warn;
  }
}
