// POST /v1/oauth/token: OAuth 2.0 client_credentials (RFC 6749 4.4), registered scopes only, 60 issuances a minute per client_id.
import { endpoints, schemas } from '@fin/core';
import type { RegisteredClient } from '../deps/clients.js';
import type { ServiceDeps } from '../deps/service-deps.js';
import { readForm } from '../http/body.js';
import type { AnswerContext } from '../http/envelope.js';
import { JSON_HEADERS, tokenFailure } from '../http/envelope.js';
import { perMinuteLimit } from '../http/per-minute-limit.js';
import type { PlainRequest, PlainResponse } from '../http/plain.js';
import { presentedCertificate } from './presented-certificate.js';
import { hashToken, newToken } from './token-hash.js';

/**
 * Counts a failed authentication against its own budgets (decision S-25), per registered client_id (every
 * unknown id shares one budget: `endpoints.tokenBudgetKey`, so random ids never grow storage) and per
 * source when the adapter knows it, never against the client's issuances: the `Retry-After` header when
 * either budget is spent, else `undefined`.
 */
async function countFailure(
  deps: ServiceDeps,
  clientId: string,
  source: string | undefined,
  now: Date,
): Promise<Record<string, string> | undefined> {
  const { limits } = deps.settings;
  const limited = await Promise.all([
    perMinuteLimit(
      deps.rateLimiter,
      endpoints.tokenBudgetKey(clientId, deps.clients.get(clientId) ? 'wrong-secret' : 'unknown-client'),
      limits.tokenFailuresPerMinute,
      now,
    ),
    source === undefined
      ? undefined
      : perMinuteLimit(
          deps.rateLimiter,
          `token-fail:source:${source}`,
          limits.tokenFailuresPerSourcePerMinute,
          now,
        ),
  ]);
  const waits = limited.flatMap((headers) => (headers ? [Number(headers['retry-after'])] : []));
  return waits.length > 0 ? { 'retry-after': String(Math.max(...waits)) } : undefined;
}

export async function issueToken(
  deps: ServiceDeps,
  request: PlainRequest,
  ctx: AnswerContext,
): Promise<PlainResponse> {
  const { limits } = deps.settings;
  const form = await readForm(request, limits.maxBodyBytes);
  if (!form.ok) {
    return tokenFailure(ctx, form.code === 'payload_too_large' ? 'payload_too_large' : 'bad_request', {
      description: describe(form.details),
    });
  }
  const credentials = endpoints.clientCredentialsOf(request.header('authorization'), form.params);
  if (!credentials.ok) return tokenFailure(ctx, 'bad_request', { description: credentials.description });
  if (!credentials.clientId) {
    return tokenFailure(ctx, 'bad_request', {
      description: 'client_id is required (form field or HTTP Basic).',
    });
  }
  const { clientId, clientSecret } = credentials;
  // The id names rate-limit keys in the store: text every store can hold, of a sane length.
  if (!schemas.tokenRequest.shape.client_id.safeParse(clientId).success) {
    return tokenFailure(ctx, 'bad_request', {
      description: 'client_id must be 1 to 256 characters, without NUL or unpaired surrogates.',
    });
  }
  const grantType = form.params.get('grant_type');
  if (grantType === undefined) {
    return tokenFailure(ctx, 'bad_request', { description: 'grant_type is required.' });
  }
  // Compared in constant time whether or not the client exists (client-registry).
  const client = clientSecret === undefined ? undefined : deps.clients.authenticate(clientId, clientSecret);
  const certificate = presentedCertificate(request, deps.settings.trustedProxy);
  if (!client || client.environment !== deps.settings.environment || !holdsCertificate(client, certificate)) {
    const limited = await countFailure(deps, clientId, request.source, ctx.now);
    if (limited) return tokenFailure(ctx, 'rate_limit_exceeded', { headers: limited });
    return tokenFailure(ctx, 'invalid_client', {
      headers:
        credentials.method === 'client_secret_basic' ? { 'www-authenticate': 'Basic realm="fin"' } : {},
    });
  }
  // Only a request with the right credentials spends one of the client's issuances.
  const limited = await perMinuteLimit(
    deps.rateLimiter,
    endpoints.tokenBudgetKey(clientId, 'authenticated'),
    limits.tokensPerMinute,
    ctx.now,
  );
  if (limited) return tokenFailure(ctx, 'rate_limit_exceeded', { headers: limited });
  if (grantType !== 'client_credentials') {
    return tokenFailure(ctx, 'unsupported_grant_type', {
      description: 'Only grant_type=client_credentials is supported.',
    });
  }
  return grantToken(deps, client, form.params.get('scope'), certificate, ctx);
}

/** RFC 8705 2.1: a client bound to certificates authenticates only over a connection with one of them. */
const holdsCertificate = (client: RegisteredClient, certificate: string | undefined) =>
  client.certificates.size === 0 || (certificate !== undefined && client.certificates.has(certificate));

/**
 * The token of an authenticated client, for the scopes it asked (all it holds when it named none); bound
 * to the connection's client certificate when there is one (RFC 8705 3: `cnf` `x5t#S256`).
 */
async function grantToken(
  deps: ServiceDeps,
  client: RegisteredClient,
  scope: string | undefined,
  certificate: string | undefined,
  ctx: AnswerContext,
): Promise<PlainResponse> {
  const { limits } = deps.settings;
  const requested = (scope ?? '').split(' ').filter(Boolean);
  const refused = requested.filter((scope) => !client.scopes.has(scope));
  if (refused.length > 0) {
    return tokenFailure(ctx, 'invalid_scope', {
      description: `Scope not granted to this client: ${refused.join(' ')}.`,
    });
  }
  const scopes = requested.length > 0 ? [...new Set(requested)] : [...client.scopes];
  const token = newToken();
  await deps.store.saveToken({
    tokenHash: hashToken(token),
    clientId: client.clientId,
    scopes,
    environment: client.environment,
    issuedAt: ctx.now.toISOString(),
    expiresAt: new Date(ctx.now.getTime() + limits.tokenTtlSeconds * 1000).toISOString(),
    ...(certificate ? { certificateSha256: certificate } : {}),
  });
  return {
    status: 200,
    headers: { ...JSON_HEADERS },
    body: {
      access_token: token,
      token_type: 'Bearer',
      expires_in: limits.tokenTtlSeconds,
      scope: scopes.join(' '),
    },
  };
}

const describe = (details: { field: string; issue: string }[]) =>
  details.map((d) => `${d.field} ${d.issue}`).join('; ');
