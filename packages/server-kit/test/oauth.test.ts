// POST /v1/oauth/token and bearer authentication: spec section 5 exactly, RFC 6749 error bodies (decision C-4).
import { schemas } from '@fin/core';
import { createFinancingService, memoryStore, sandboxCreditEngine } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { cart, harness, MINUTE, PARTNER_A, PARTNER_B } from './support/harness.js';

const credentials = { grant_type: 'client_credentials', client_id: 'partner-a', client_secret: 'secret-a' };

describe('POST /v1/oauth/token', () => {
  it('issues an opaque Bearer token valid 1 hour with the registered scope, never cached', async () => {
    const h = harness();
    const answer = await h.tokenRequest({ ...credentials, scope: 'sales:authorize' });
    expect(answer.status).toBe(200);
    expect(schemas.tokenResponse.parse(answer.body)).toEqual({
      access_token: expect.stringMatching(/^[\w-]{40,}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'sales:authorize',
    });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('grants the registered scopes when none is asked, and accepts HTTP Basic client authentication', async () => {
    const h = harness();
    const basic = Buffer.from('partner-a:secret-a').toString('base64');
    const answer = await h.tokenRequest(
      { grant_type: 'client_credentials' },
      { authorization: `Basic ${basic}` },
    );
    expect(answer.body.scope).toBe('sales:authorize');
  });

  it('scopes: a scope not registered for the client is refused with invalid_scope', async () => {
    const h = harness();
    const answer = await h.tokenRequest({ ...credentials, scope: 'sales:authorize catalog:read' });
    expect(answer.status).toBe(400);
    expect(schemas.tokenErrorResponse.parse(answer.body)).toMatchObject({ error: 'invalid_scope' });
  });

  it.each([
    ['an unknown client', { client_id: 'nobody', client_secret: 'secret-a' }],
    ['a wrong secret', { client_id: 'partner-a', client_secret: 'secret-b' }],
    ['no secret', { client_id: 'partner-a', client_secret: undefined }],
  ])('invalid_client for %s, in the RFC 6749 shape beside the envelope fields', async (_, override) => {
    const h = harness();
    const form = Object.fromEntries(
      Object.entries({ ...credentials, ...override }).filter(([, v]) => v !== undefined),
    ) as Record<string, string>;
    const answer = await h.tokenRequest(form);
    expect(answer.status).toBe(401);
    expect(schemas.tokenErrorResponse.parse(answer.body)).toMatchObject({
      error: 'invalid_client',
      success: false,
      data: null,
      code: 'invalid_client',
      legacyCode: 'FA1004',
    });
  });

  it('invalid_client for a credential of another environment', async () => {
    const service = createFinancingService({
      clients: [{ ...PARTNER_A, environment: 'production' }],
      credit: sandboxCreditEngine(),
      environment: 'sandbox',
    });
    const answer = await service.fetch(
      new Request('http://fin.test/v1/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(credentials),
      }),
    );
    expect(answer.status).toBe(401);
    expect((await answer.json()).error).toBe('invalid_client');
  });

  it('RFC 6749 2.3: HTTP Basic beside a client_secret in the form is two methods, invalid_request; no answer is cached', async () => {
    const h = harness();
    const basic = { authorization: `Basic ${Buffer.from('partner-a:secret-a').toString('base64')}` };
    const both = await h.tokenRequest(credentials, basic);
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ error: 'invalid_request', code: 'bad_request' });
    const wrong = await h.tokenRequest(
      { grant_type: 'client_credentials' },
      { authorization: `Basic ${Buffer.from('partner-a:wrong').toString('base64')}` },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    for (const answer of [both, wrong, await h.tokenRequest({ ...credentials, grant_type: 'password' })]) {
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('pragma')).toBe('no-cache');
    }
  });

  it('RFC 6749 5.1 and 5.2: a failure of the service itself is an RFC 6749 server_error, never cached', async () => {
    const store = memoryStore();
    const failing = new Proxy(store, {
      get: (target, key, receiver) =>
        key === 'saveToken'
          ? () => Promise.reject(new Error('disk full'))
          : Reflect.get(target, key, receiver),
    });
    const answer = await harness({ store: failing }).tokenRequest(credentials);
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ error: 'server_error', code: 'internal_error' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('RFC 6749 5.1 and 5.2: the 503 of a service shutting down is a server_error, not cached either', async () => {
    const h = harness();
    await h.service.close();
    const answer = await h.tokenRequest(credentials);
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: 'server_error', code: 'service_unavailable' });
    expect(answer.headers.get('retry-after')).not.toBeNull();
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('pragma')).toBe('no-cache');
  });

  it('D-OA-11 (RFC 9110 15.1): another method at the token path, with a query or not (HEAD and OPTIONS too), is 405 with Allow, never cached; a 404 or 405 elsewhere gains no no-store', async () => {
    const h = harness();
    const call = (method: string, path: string) =>
      h.service.fetch(new Request(`http://fin.test${path}`, { method }));
    for (const [method, path] of [
      ['GET', '/v1/oauth/token'],
      ['GET', '/v1/oauth/token?grant_type=client_credentials'],
      ['HEAD', '/v1/oauth/token'],
      ['OPTIONS', '/v1/oauth/token'],
      ['DELETE', '/v1/oauth/token'],
    ] as const) {
      const answer = await call(method, path);
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('pragma')).toBe('no-cache');
      if (method === 'HEAD') continue;
      expect(schemas.errorEnvelope.parse(await answer.json()).error.code).toBe('method_not_allowed');
    }
    const elsewhere = await call('GET', '/v1/sales/authorize');
    expect(elsewhere.status).toBe(405);
    expect(elsewhere.headers.get('allow')).toBe('POST');
    expect(elsewhere.headers.get('cache-control')).toBeNull();
    expect(elsewhere.headers.get('pragma')).toBeNull();
    // Another path, if one character longer: the router's 404, not the token endpoint's.
    const beside = await call('GET', '/v1/oauth/token/');
    expect(beside.status).toBe(404);
    expect(beside.headers.get('cache-control')).toBeNull();
  });

  it('refuses other grant types and malformed requests with RFC 6749 codes', async () => {
    const h = harness();
    expect((await h.tokenRequest({ ...credentials, grant_type: 'password' })).body.error).toBe(
      'unsupported_grant_type',
    );
    expect((await h.tokenRequest({ client_id: 'partner-a', client_secret: 'secret-a' })).body.error).toBe(
      'invalid_request',
    );
    const json = await h.service.fetch(
      new Request('http://fin.test/v1/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(credentials),
      }),
    );
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_request', code: 'bad_request' });
  });

  it('token issuance is limited to 60 in any minute per client_id: 429 with a whole-second Retry-After', async () => {
    const h = harness();
    h.clock.advance(15_000);
    for (let i = 0; i < 60; i++) expect((await h.tokenRequest(credentials)).status).toBe(200);
    const limited = await h.tokenRequest(credentials);
    expect(limited.status).toBe(429);
    // The 60 issuances of second 15 leave the sliding window (counted by the second) at second 76.
    expect(limited.headers.get('retry-after')).toBe('61');
    expect(limited.body).toMatchObject({ error: 'rate_limit_exceeded', code: 'rate_limit_exceeded' });
    // Another client is not affected; once Retry-After has passed, issuance is open again.
    expect(
      (await h.tokenRequest({ ...credentials, client_id: 'partner-b', client_secret: 'secret-b' })).status,
    ).toBe(200);
    h.clock.advance(60_999);
    expect((await h.tokenRequest(credentials)).status).toBe(429);
    h.clock.advance(1);
    expect((await h.tokenRequest(credentials)).status).toBe(200);
  });
});

describe('bearer authentication (spec section 5)', () => {
  it('missing_token (401) without an Authorization header', async () => {
    const h = harness();
    const answer = await h.authorize(cart(), { token: null });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({ code: 'missing_token', legacyCode: 'FA1001' });
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('invalid_token (401) for an unknown or malformed token', async () => {
    const h = harness();
    expect((await h.authorize(cart(), { token: 'not-a-token' })).body.error.code).toBe('invalid_token');
    const malformed = await h.authorize(cart(), { token: null, headers: { authorization: 'Token abc' } });
    expect(malformed.status).toBe(401);
    expect(malformed.body.error.code).toBe('invalid_token');
  });

  it('expired_token (401) once the hour of the token has passed', async () => {
    const h = harness();
    const token = await h.token();
    h.clock.advance(60 * MINUTE - 1);
    expect((await h.authorize(cart(), { token })).status).toBe(200);
    h.clock.advance(1);
    const answer = await h.authorize(cart(), { token });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toMatchObject({ code: 'expired_token', legacyCode: 'FA1003' });
  });

  it('insufficient_scope (403) for a valid token without sales:authorize', async () => {
    const h = harness({
      clients: [{ ...PARTNER_A, scopes: ['sales:authorize', 'sales:read'] }],
    });
    const token = await h.token(PARTNER_A, 'sales:read');
    const answer = await h.authorize(cart(), { token });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: 'insufficient_scope', legacyCode: 'FA1005' });
  });

  it('a token of a client no longer registered is invalid_token, even on a store shared by instances', async () => {
    const store = memoryStore();
    const first = harness({ store });
    const token = await first.token();
    expect((await first.authorize(cart(), { token })).status).toBe(200);
    const second = harness({ store, clients: [PARTNER_B] });
    expect((await second.authorize(cart(), { token })).body.error.code).toBe('invalid_token');
  });
});
