// One property for both token endpoints: any form answers a token or an RFC 6749 error with a catalog code.
import fc from 'fast-check';
import { answered, assertTokenAnswer } from './envelope-check.js';
import type { SecretGuard } from './secret-guard.js';

export interface TokenEndpoint {
  /** The party's Web-standard handler (service.fetch or the simulated POS). */
  fetch(request: Request): Promise<Response>;
  url: string;
  clientId: string;
  clientSecret: string;
}

export async function checkTokenForms(
  endpoint: TokenEndpoint,
  guard: SecretGuard,
  numRuns: number,
): Promise<void> {
  const field = fc.constantFrom('grant_type', 'client_id', 'client_secret', 'scope', 'unexpected');
  const value = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.constantFrom('client_credentials', 'password', endpoint.clientId, endpoint.clientSecret),
    fc.constantFrom('catalog:read', 'sales:authorize', 'admin', 'x'.repeat(10_000)),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(field, value), { maxLength: 8 }),
      fc.constantFrom('application/x-www-form-urlencoded', 'application/json', 'text/plain'),
      async (pairs, contentType) => {
        const response = await endpoint.fetch(
          new Request(endpoint.url, {
            method: 'POST',
            headers: { 'content-type': contentType },
            body: new URLSearchParams(pairs).toString(),
          }),
        );
        const answer = await answered(response);
        if (answer.status === 200) {
          guard.add('token', (JSON.parse(answer.text) as { access_token: string }).access_token);
        }
        assertTokenAnswer(answer);
      },
    ),
    { numRuns },
  );
}
