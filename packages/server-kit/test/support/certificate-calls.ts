// The two calls the mutual TLS tests make through service.fetch: a token request and an authenticated read, with the certificate a host or proxy passes.
import { randomUUID, X509Certificate } from 'node:crypto';
import type { FinancingService } from '@fin/server-kit';

type Info = Parameters<FinancingService['fetch']>[1];

/** The DER of a PEM certificate, as a host passes it in `service.fetch(request, { peerCertificate })`. */
export const derOf = (pem: string) => new Uint8Array(new X509Certificate(pem).raw);

/** A client_credentials token request (by default of `boundClient`'s `bound` / `b0und`): status and JSON body. */
export async function token(
  service: FinancingService,
  headers: Record<string, string> = {},
  info?: Info,
  client = { id: 'bound', secret: 'b0und' },
) {
  const answer = await service.fetch(
    new Request('https://api.test/v1/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.id,
        client_secret: client.secret,
      }).toString(),
    }),
    info,
  );
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** An authenticated read: 404 `authorization_not_found` once the bearer is accepted, 401 when it is not. */
export const read = async (...args: Parameters<typeof readAnswer>) => (await readAnswer(...args)).status;

/** The same read with the error code and `WWW-Authenticate` challenge of its answer. */
export async function readAnswer(
  service: FinancingService,
  bearer: unknown,
  headers: Record<string, string> = {},
  info?: Info,
) {
  const answer = await service.fetch(
    new Request('https://api.test/v1/sales/00000000-0000-4000-8000-000000000000', {
      headers: {
        authorization: `Bearer ${String(bearer)}`,
        'x-request-id': randomUUID(),
        'x-correlation-id': randomUUID(),
        ...headers,
      },
    }),
    info,
  );
  const body = (await answer.json()) as { error?: { code?: string } };
  return { status: answer.status, code: body.error?.code, challenge: answer.headers.get('www-authenticate') };
}
