// The system layer (spec section 5, RFC 6749): the token answer, its caching, both client authentications, a wrong client.
import { schemas } from '@fin/core';
import { answerText, type Check, issuesText } from '../check.js';
import { accessTokenOf, requestToken } from '../facts.js';

const TOKEN = 'POST /v1/oauth/token';

export const tokenResponse: Check = {
  id: 'oauth.token-response',
  title: 'OAuth: the token answer (access_token, token_type Bearer, expires_in)',
  async run({ probe, options, violation }) {
    const exchange = await requestToken(probe, options);
    if (exchange.status !== 200) {
      return violation(
        TOKEN,
        `client_credentials with client_secret_post; expected HTTP 200, got ${answerText(exchange)}`,
        'issue a token for grant_type=client_credentials with client_id and client_secret in the form body',
      );
    }
    const parsed = schemas.tokenResponse.safeParse(exchange.body);
    if (!parsed.success) {
      violation(
        TOKEN,
        `the token answer does not match the contract: ${issuesText(parsed.error, 'body')}`,
        'answer plain JSON (no envelope) with access_token, token_type "Bearer" (any case), expires_in in integer seconds',
      );
    }
  },
};

export const tokenNoStore: Check = {
  id: 'oauth.no-store',
  title: 'OAuth: token answers are not cacheable (Cache-Control: no-store)',
  async run({ probe, options, violation }) {
    const exchange = await requestToken(probe, options);
    const cacheControl = exchange.headers.get('cache-control') ?? '';
    if (!/(^|,)\s*no-store\s*(,|$)/i.test(cacheControl)) {
      violation(
        TOKEN,
        `the token answer carries ${cacheControl ? `Cache-Control: ${cacheControl}` : 'no Cache-Control header'}`,
        'send `Cache-Control: no-store` with every token answer (RFC 6749 section 5.1), so no proxy keeps a token',
      );
    }
  },
};

export const clientAuthentication: Check = {
  id: 'oauth.client-auth',
  title: 'OAuth: both client authentications (client_secret_post and HTTP Basic)',
  async run({ probe, options, violation }) {
    for (const basic of [false, true]) {
      const exchange = await requestToken(probe, options, { basic });
      if (accessTokenOf(exchange)) continue;
      violation(
        TOKEN,
        `client authentication ${basic ? 'client_secret_basic (the Authorization header)' : 'client_secret_post (the form body)'} ` +
          `with the right credentials; expected a token, got ${answerText(exchange)}`,
        basic
          ? 'accept client_secret_basic: the `Authorization` header, scheme `Basic`, with base64 of urlencoded client_id, a colon and the urlencoded secret (RFC 6749 section 2.3.1: servers must support it)'
          : 'accept client_id and client_secret in the form-encoded body (spec section 4)',
      );
    }
  },
};

export const invalidClient: Check = {
  id: 'oauth.invalid-client',
  title: 'OAuth: a wrong client secret is 401 invalid_client',
  async run({ probe, options, violation }) {
    const exchange = await requestToken(probe, options, { clientSecret: `wrong-${crypto.randomUUID()}` });
    const body = (exchange.body ?? {}) as { error?: unknown; code?: unknown };
    const named =
      body.error === 'invalid_client' ||
      body.code === 'invalid_client' ||
      (typeof body.error === 'object' &&
        (body.error as { code?: unknown } | null)?.code === 'invalid_client');
    if (exchange.status !== 401 || !named) {
      violation(
        TOKEN,
        `a wrong client secret; expected HTTP 401 invalid_client, got HTTP ${exchange.status}${named ? ' invalid_client' : ''}`,
        'answer a wrong client id or secret with HTTP 401 and `"error": "invalid_client"` (spec section 5, RFC 6749 section 5.2)',
      );
    }
  },
};
