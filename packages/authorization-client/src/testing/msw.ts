// msw handlers that play the Sales Authorization API on a sandbox: the `/testing/msw` entry, the one that loads msw.

import { memoryStore } from '@fin/server-kit';
import { http } from 'msw';
import { createSandbox, type SandboxOptions } from './sandbox.js';

export interface SandboxHandlersOptions extends SandboxOptions {
  /** Base URL the handlers answer on; default `https://sandbox.fin.test`. */
  baseUrl?: string;
}

export const SANDBOX_BASE_URL = 'https://sandbox.fin.test';

/**
 * The tokens every handlers' sandbox of this process issued: a client's cached token stays valid after
 * `server.resetHandlers(...authorizationHandlers())`, so a test's first call is not a 401.
 */
const issuedTokens = memoryStore();

/**
 * Handlers for `setupServer(...authorizationHandlers())`: a sandbox (`startSandbox` serves the same one
 * over loopback HTTP). Each call makes a fresh sandbox (no sale of an earlier one); its state lives in the
 * returned handlers only, but the tokens it accepts are those any handlers of this process issued.
 */
export function authorizationHandlers(options: SandboxHandlersOptions = {}) {
  const baseUrl = (options.baseUrl ?? SANDBOX_BASE_URL).replace(/\/+$/, '');
  const sandbox = createSandbox(options, issuedTokens);
  return [http.all(`${baseUrl}/*`, ({ request }) => sandbox.fetch(request))];
}
