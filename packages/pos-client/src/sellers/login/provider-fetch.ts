// The fetch of every call to the partner's OpenID Provider: bounded in time and bytes, never following a redirect (DESIGN 19).
import { BodyTooLarge, createBoundedSignal, type Fetch, readBody } from '@fin/core/transport';
import { SellerLoginError } from './seller-login-error.js';

/** The largest answer read from the provider (discovery, JWKS, PAR, token): 256 KiB. */
export const MAX_PROVIDER_RESPONSE_BYTES = 256 * 1024;

/** What oauth4webapi's `customFetch` is called with. */
type ProviderRequestInit = {
  body?: BodyInit | null;
  headers: Record<string, string>;
  method: string;
  signal?: AbortSignal;
};

const providerError = (reason: 'unreachable' | 'timeout' | 'too_large' | 'redirect') =>
  new SellerLoginError('provider_error', { reason });

/**
 * `send` (the client's fetch, with its certificate when it has `tls`) wrapped so that each call to the
 * provider ends within `timeoutMs` (headers and whole body), reads at most `maxBytes`, and refuses a 3xx.
 * Failures are SellerLoginErrors `provider_error` naming why; the body read is handed on as a new Response.
 */
export function providerFetch(send: Fetch, timeoutMs: number, maxBytes = MAX_PROVIDER_RESPONSE_BYTES) {
  return async (url: string, init: ProviderRequestInit): Promise<Response> => {
    const bound = createBoundedSignal(init.signal, timeoutMs);
    try {
      const response = await send(url, { ...init, redirect: 'manual', signal: bound.signal }).catch(() => {
        throw providerError(bound.timedOut() ? 'timeout' : 'unreachable');
      });
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        await response.body?.cancel().catch(() => {});
        throw providerError('redirect');
      }
      const text = await readBody(response, maxBytes, bound.signal).catch((error: unknown) => {
        throw providerError(
          error instanceof BodyTooLarge ? 'too_large' : bound.timedOut() ? 'timeout' : 'unreachable',
        );
      });
      const { status, statusText, headers } = response;
      return new Response(text === '' ? null : text, { status, statusText, headers });
    } finally {
      bound.dispose();
    }
  };
}
