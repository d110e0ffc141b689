// Test/live safety: a client id marked for one environment is never sent to the other.
import { FinInputError } from '@fin/core';

/** Where the base URL points, as the caller declares it. */
export type Environment = 'sandbox' | 'production';

/** Client id prefixes: `test_` ids belong to the sandbox, `live_` ids to production. */
export const CLIENT_ID_PREFIXES = { sandbox: 'test_', production: 'live_' } as const satisfies Record<
  Environment,
  string
>;

const marked = (clientId: string): Environment | undefined =>
  clientId.startsWith(CLIENT_ID_PREFIXES.sandbox)
    ? 'sandbox'
    : clientId.startsWith(CLIENT_ID_PREFIXES.production)
      ? 'production'
      : undefined;

/**
 * Throws `invalid_client` before any request when the declared `environment` contradicts the client id's
 * prefix, or when production is declared for a base URL that is not https (the spec requires TLS).
 * Without a declared environment, or for an unmarked client id, nothing is checked.
 */
export function assertEnvironment(
  environment: Environment | undefined,
  clientId: string,
  baseUrl: string,
): void {
  if (!environment) return;
  const idEnvironment = marked(clientId);
  if (idEnvironment && idEnvironment !== environment) {
    throw new FinInputError({
      code: 'invalid_client',
      message: `A ${idEnvironment} client id (${CLIENT_ID_PREFIXES[idEnvironment]}...) cannot be used against the ${environment} API.`,
      details: [
        { field: 'clientId', issue: `prefix ${CLIENT_ID_PREFIXES[environment]} expected for ${environment}` },
      ],
    });
  }
  if (environment === 'production' && new URL(baseUrl).protocol !== 'https:') {
    throw new FinInputError({
      code: 'invalid_client',
      message: 'The production API is only reached over https.',
      details: [{ field: 'baseUrl', issue: 'https required in production' }],
    });
  }
}
