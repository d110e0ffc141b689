// Decision S-12: the token endpoint says one thing everywhere; server, simulated POS, catalog, OpenAPI and docs/errors.md cannot drift.
import { readFileSync } from 'node:fs';
import { errorCatalog } from '@fin/core';
import { type TokenErrorCode, tokenEndpointErrors, tokenErrorCodes } from '@fin/core/errors';
import { buildPartnerPosOpenApi, buildSalesAuthorizationOpenApi } from '@fin/core/openapi';
import { createSimulatedPos } from '@fin/pos-client/testing';
import { describe, expect, it } from 'vitest';
import { type Answer, harness, PARTNER_A } from './support/harness.js';

const committed = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../docs/openapi/${name}.json`, import.meta.url), 'utf8'));
const errorsMd = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

const documents = {
  'sales-authorization (built)': buildSalesAuthorizationOpenApi(),
  'partner-pos (built)': buildPartnerPosOpenApi(),
  'sales-authorization (docs/openapi)': committed('sales-authorization'),
  'partner-pos (docs/openapi)': committed('partner-pos'),
};

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are read as plain JSON here
type Doc = any;

/** code -> HTTP status, as the token operation of `doc` documents it (response examples by status). */
function documentedTokenErrors(doc: Doc): Map<string, { status: number; error: string }> {
  const documented = new Map<string, { status: number; error: string }>();
  const responses = doc.paths['/v1/oauth/token'].post.responses as Record<string, Doc>;
  for (const [status, response] of Object.entries(responses)) {
    if (status === '200') continue;
    for (const example of Object.values(
      response.content['application/json'].examples as Record<string, Doc>,
    )) {
      const name = (example.$ref as string).split('/').at(-1)!;
      const { value } = doc.components.examples[name];
      documented.set(value.code, { status: Number(status), error: value.error });
    }
  }
  return documented;
}

/** What the one table says a code must answer. */
const expected = (code: TokenErrorCode) => ({
  status: errorCatalog[code].status,
  error: tokenEndpointErrors[code],
});

describe('S-12: the token endpoint says one thing everywhere', () => {
  it('S-12: RFC 6749 section 5.2 statuses: 400 for every OAuth error but invalid_client (401); HTTP-level refusals keep theirs', () => {
    for (const code of tokenErrorCodes) {
      const { status, error } = expected(code);
      if (error === 'invalid_client') expect(status).toBe(401);
      else if (['invalid_request', 'unsupported_grant_type', 'invalid_scope'].includes(error)) {
        expect([400, 408, 413, 431]).toContain(status);
      }
    }
    expect(tokenErrorCodes).not.toContain('unsupported_media_type');
    expect(tokenErrorCodes).not.toContain('insufficient_scope');
  });

  it.each(Object.entries(documents))(
    'S-12: the token operation of %s documents exactly the table, with the catalog status and RFC error',
    (_name, doc) => {
      const documented = documentedTokenErrors(doc);
      expect([...documented.keys()].sort()).toEqual([...tokenErrorCodes].sort());
      for (const code of tokenErrorCodes) expect(documented.get(code)).toEqual(expected(code));
    },
  );

  it('S-12: docs/errors.md lists the same table', () => {
    for (const code of tokenErrorCodes) {
      const { status, error } = expected(code);
      expect(errorsMd).toContain(`| \`${code}\` | ${status} | \`${error}\` |`);
    }
  });

  const cases: { name: string; code: TokenErrorCode; init: RequestInit }[] = [
    {
      name: 'a JSON body',
      code: 'bad_request',
      init: {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' }),
      },
    },
    {
      name: 'a scope the client does not hold',
      code: 'invalid_scope',
      init: {
        body: 'grant_type=client_credentials&scope=catalog%3Aread+inventory%3Aread+sales%3Aread+sales%3Aauthorize',
      },
    },
    { name: 'another grant type', code: 'unsupported_grant_type', init: { body: 'grant_type=password' } },
    { name: 'a wrong secret', code: 'invalid_client', init: { body: 'grant_type=client_credentials' } },
    { name: 'no grant type', code: 'bad_request', init: { body: '' } },
  ];

  /** The form of `init` with the right (or, for invalid_client, a wrong) credentials added. */
  const request = (
    base: string,
    credentials: { clientId: string; clientSecret: string },
    c: (typeof cases)[0],
  ) => {
    const form = new URLSearchParams(typeof c.init.body === 'string' && !c.init.headers ? c.init.body : '');
    form.set('client_id', credentials.clientId);
    form.set('client_secret', c.code === 'invalid_client' ? 'wrong' : credentials.clientSecret);
    return new Request(`${base}/v1/oauth/token`, {
      method: 'POST',
      headers: c.init.headers ?? { 'content-type': 'application/x-www-form-urlencoded' },
      body: c.init.headers ? c.init.body : form,
    });
  };

  const check = async (response: Response, code: TokenErrorCode) => {
    const body = (await response.json()) as Answer['body'];
    expect({ status: response.status, error: body.error, code: body.code }).toEqual({
      ...expected(code),
      code,
    });
  };

  it.each(cases)('S-12: the financing service answers $name as the table says ($code)', async (c) => {
    const h = harness();
    await check(await h.service.fetch(request('http://fin.test', PARTNER_A, c)), c.code);
  });

  it.each(cases)('S-12: the simulated partner POS answers $name as the table says ($code)', async (c) => {
    const sim = createSimulatedPos();
    await check(await sim.fetch(request('http://pos.test', sim.credentials, c)), c.code);
  });
});
