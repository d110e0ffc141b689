// The bytes of one authorize request: bearer, fresh Idempotency-Key and ids, a cart with a fresh IMEI.
import { randomUUID } from 'node:crypto';
import { cartStream } from './cart.js';

export interface AuthorizeRequestParts {
  headers: Record<string, string>;
  body: string;
}

/**
 * Each call gives the next request: a new IMEI, customer CPF, Idempotency-Key, X-Request-Id and
 * X-Correlation-Id; with several tokens, each request the next partner's in turn.
 */
export function authorizeRequests(
  token: string | readonly string[],
  streamPrefix: number,
  storeId?: string,
): () => AuthorizeRequestParts {
  const nextCart = cartStream(streamPrefix, storeId);
  const bearers = (typeof token === 'string' ? [token] : token).map((t) => `Bearer ${t}`);
  let turn = 0;
  return () => ({
    headers: {
      authorization: bearers[turn++ % bearers.length]!,
      'content-type': 'application/json',
      accept: 'application/json',
      'idempotency-key': randomUUID(),
      'x-request-id': randomUUID(),
      'x-correlation-id': randomUUID(),
    },
    body: JSON.stringify(nextCart()),
  });
}

/** One client_credentials request to the token endpoint at `baseUrl` (scope left out when absent). */
export function requestToken(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
  scope?: string,
  send: typeof fetch = fetch,
) {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  if (scope) form.set('scope', scope);
  return send(`${baseUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
}

/** A system token from the server's own token endpoint (one per run; R-10 and idempotency need no more). */
export async function fetchToken(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await requestToken(baseUrl, clientId, clientSecret, 'sales:authorize');
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || !body.access_token) throw new Error(`token endpoint answered ${response.status}`);
  return body.access_token;
}
