// msw handlers that play the Sales Authorization API for a POS vendor's own tests.
import { http } from 'msw';
import { createFaults } from './faults.js';
import { magicValues } from './magic-values.js';
import { createSandbox } from './sandbox-api.js';

export interface SandboxHandlersOptions {
  /** Base URL the handlers answer on; default `https://sandbox.fin.test`. */
  baseUrl?: string;
  /** Credentials the sandbox accepts; default `magicValues.credentials`. */
  clientId?: string;
  clientSecret?: string;
  /** The sandbox's clock (expiry, R-06); default the real time. */
  now?: () => Date;
}

export const SANDBOX_BASE_URL = 'https://sandbox.fin.test';

/**
 * Handlers for `setupServer(...authorizationHandlers())`. Each call makes a fresh sandbox: state
 * (tokens, authorizations, idempotency) lives in the returned handlers only.
 */
export function authorizationHandlers(options: SandboxHandlersOptions = {}) {
  const baseUrl = (options.baseUrl ?? SANDBOX_BASE_URL).replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());
  const faults = createFaults(now);
  const sandbox = createSandbox({
    clientId: options.clientId ?? magicValues.credentials.clientId,
    clientSecret: options.clientSecret ?? magicValues.credentials.clientSecret,
    now,
  });
  return [http.all(`${baseUrl}/*`, async ({ request }) => (await faults(request)) ?? sandbox.fetch(request))];
}
