// Issue 36 §5: every catalog error carries docsUrl, its entry in docs/errors.md: in the service's envelope and on FinApiError.
import { AuthorizationClient } from '@fin/authorization-client';
import { errorDocsUrl, isFinApiError } from '@fin/core';
import { createFinancingService, sandboxCreditEngine } from '@fin/server-kit';
import { describe, expect, it } from 'vitest';
import { cart } from './fixtures.js';

const clientOf = (fetch: (request: Request) => Promise<Response>, clientSecret = 'secret-1') =>
  new AuthorizationClient({
    baseUrl: 'https://fin.test',
    clientId: 'pos-1',
    clientSecret,
    rateLimit: false,
    maxRetries: 0,
    fetch: (input, init) => fetch(new Request(input, init)),
  });

describe('docsUrl of catalog errors (issue 36 §5)', () => {
  it("the service's error envelope carries error.docsUrl, and the client's FinApiError has it", async () => {
    const service = createFinancingService({
      clients: [
        { clientId: 'pos-1', clientSecret: 'secret-1', scopes: ['sales:authorize'], storeIds: ['s-1'] },
      ],
      credit: sandboxCreditEngine(),
    });
    const bodies: unknown[] = [];
    const recording = async (request: Request) => {
      const response = await service.fetch(request);
      bodies.push(await response.clone().json());
      return response;
    };
    const error = await clientOf(recording)
      .authorize(cart({ storeId: 'not-mine' }))
      .catch((caught: unknown) => caught);
    expect(isFinApiError(error, 'store_not_found')).toBe(true);
    expect((error as { docsUrl?: string }).docsUrl).toBe(errorDocsUrl('store_not_found'));
    expect(bodies.at(-1)).toMatchObject({ error: { docsUrl: errorDocsUrl('store_not_found') } });
    await service.close();
  });

  it("a partner's answer without docsUrl gets the catalog's; one with its own keeps it", async () => {
    const answer = (docsUrl?: string) => async (request: Request) =>
      new URL(request.url).pathname.endsWith('/token')
        ? Response.json({ access_token: 't', token_type: 'Bearer', expires_in: 3600 })
        : Response.json(
            {
              success: false,
              message: 'x',
              timestamp: new Date().toISOString(),
              data: null,
              error: { code: 'total_mismatch', message: 'x', ...(docsUrl ? { docsUrl } : {}) },
            },
            { status: 422 },
          );
    await expect(clientOf(answer()).authorize(cart())).rejects.toMatchObject({
      code: 'total_mismatch',
      docsUrl: 'https://example.invalid/fin-sdks/blob/main/docs/errors.md#total_mismatch',
    });
    await expect(
      clientOf(answer('https://partner.test/errors#total')).authorize(cart()),
    ).rejects.toMatchObject({ docsUrl: 'https://partner.test/errors#total' });
  });
});
