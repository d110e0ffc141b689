// Bearer authentication of the API calls, with the errors of spec section 5 exactly.
import type { ErrorCode, Scope } from '@fin/core';
import type { RegisteredClient } from '../deps/clients.js';
import type { ServiceDeps } from '../deps/service-deps.js';
import type { PlainRequest } from '../http/plain.js';
import { presentedCertificate } from './presented-certificate.js';
import { hashToken } from './token-hash.js';

export type BearerResult =
  | { ok: true; client: RegisteredClient }
  | { ok: false; code: ErrorCode; headers: Record<string, string> };

const challenge = (error?: string, extra = '') =>
  `Bearer realm="fin"${error ? `, error="${error}"` : ''}${extra}`;

const refuse = (code: ErrorCode, error?: string, extra?: string): BearerResult => ({
  ok: false,
  code,
  headers: { 'www-authenticate': challenge(error, extra) },
});

/** RFC 8705 3: the token is bound to a certificate this connection does not carry (or, required, to none). */
const certificateRefused = () =>
  refuse('invalid_token', 'invalid_token', ', error_description="certificate-bound token"');

/**
 * Under `mutualTls: 'required'` (decision TLS-13) a token is good only when bound to a certificate its client
 * is still bound to: a token issued before the setting (unbound) or to a certificate since rotated out is not.
 */
const unboundUnderRequired = (deps: ServiceDeps, bound: string | undefined, client: RegisteredClient) =>
  deps.settings.mutualTls === 'required' && (bound === undefined || !client.certificates.has(bound));

/**
 * `missing_token` (no Authorization header), `invalid_token` (not a Bearer token, unknown, of a client
 * no longer registered here, or bound to a client certificate this connection does not carry: RFC 8705 3;
 * under `mutualTls: 'required'`, also one bound to no certificate of its client),
 * `expired_token` (known but past its hour), `insufficient_scope` (403: the
 * token lacks one of `scopes`, those the endpoint's registry entry requires).
 */
export async function authenticateBearer(
  deps: ServiceDeps,
  request: PlainRequest,
  scopes: readonly Scope[],
  now: Date,
): Promise<BearerResult> {
  const header = request.header('authorization');
  if (header === undefined || header.trim() === '') return refuse('missing_token');
  const bearer = /^Bearer +([\x21-\x7e]{1,512})$/i.exec(header.trim());
  if (!bearer) return refuse('invalid_token', 'invalid_token');
  const token = await deps.store.findToken(hashToken(bearer[1]!));
  if (!token) return refuse('invalid_token', 'invalid_token');
  const bound = token.certificateSha256;
  if (bound !== undefined && bound !== presentedCertificate(request, deps.settings.trustedProxy)) {
    return certificateRefused();
  }
  if (Date.parse(token.expiresAt) <= now.getTime())
    return refuse('expired_token', 'invalid_token', ', error_description="expired"');
  const client = deps.clients.get(token.clientId);
  if (
    !client ||
    client.environment !== token.environment ||
    token.environment !== deps.settings.environment
  ) {
    return refuse('invalid_token', 'invalid_token');
  }
  if (unboundUnderRequired(deps, bound, client)) return certificateRefused();
  if (scopes.some((scope) => !token.scopes.includes(scope))) {
    return refuse('insufficient_scope', 'insufficient_scope', `, scope="${scopes.join(' ')}"`);
  }
  return { ok: true, client };
}
