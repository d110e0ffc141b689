// A small financing API played by msw for the transport tests: a token endpoint and envelope helpers.
import { errorCatalog } from '@fin/core';
import { HttpResponse, http } from 'msw';

export const BASE = 'https://fin.test';
export const CLIENT = { baseUrl: BASE, clientId: 'test_pos', clientSecret: 'super-secret-value' } as const;

/** A success envelope around `data`. */
export const ok = (data: unknown, init?: ResponseInit) =>
  HttpResponse.json(
    {
      success: true,
      message: 'ok',
      timestamp: new Date().toISOString(),
      requestId: undefined,
      data,
      error: null,
    },
    init,
  );

/** The error envelope of a catalog code, with the catalog's status unless told otherwise. */
export const fail = (code: keyof typeof errorCatalog, init?: ResponseInit & { details?: unknown[] }) => {
  const entry = errorCatalog[code];
  return HttpResponse.json(
    {
      success: false,
      message: entry.message,
      timestamp: new Date().toISOString(),
      data: null,
      error: {
        code,
        legacyCode: entry.legacyCode,
        message: entry.message,
        details: init?.details,
        docsUrl: `https://docs.fin.test/errors/${code}`,
      },
    },
    { status: entry.status, ...init },
  );
};

export interface TokenRequestSeen {
  contentType: string | null;
  form: URLSearchParams;
}

/** A token endpoint handing out `token-1`, `token-2` ... that records each request. */
export function tokenEndpoint(expiresIn = 3600) {
  const seen: TokenRequestSeen[] = [];
  const handler = http.post(`${BASE}/v1/oauth/token`, async ({ request }) => {
    seen.push({
      contentType: request.headers.get('content-type'),
      form: new URLSearchParams(await request.text()),
    });
    return HttpResponse.json({
      access_token: `token-${seen.length}`,
      token_type: 'Bearer',
      expires_in: expiresIn,
      scope: 'sales:authorize',
    });
  });
  return { handler, seen };
}

/** Headers of each request an endpoint saw, for assertions on ids and keys. */
export interface SeenRequest {
  authorization: string | null;
  requestId: string | null;
  correlationId: string | null;
  idempotencyKey: string | null;
  body: string;
}

export async function record(request: Request, into: SeenRequest[]): Promise<void> {
  into.push({
    authorization: request.headers.get('authorization'),
    requestId: request.headers.get('x-request-id'),
    correlationId: request.headers.get('x-correlation-id'),
    idempotencyKey: request.headers.get('idempotency-key'),
    body: await request.text(),
  });
}
