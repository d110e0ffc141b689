// The system layer of the simulated partner: client_credentials token issuance and bearer checks (spec section 5).
import type { ErrorCode, Scope } from '@fin/core';
import type { TokenErrorCode } from '@fin/core/errors';
import type { TokenResponse } from '@fin/core/schemas';

/** An application allowed to call the partner, and the scopes it may be granted. */
export interface SimulatedClient {
  clientId: string;
  clientSecret: string;
  /** Default: the three Partner POS scopes. */
  scopes?: Scope[];
}

export const partnerScopes: Scope[] = ['catalog:read', 'inventory:read', 'sales:read'];

/** A token the simulation issued: whose it is, what it permits, until when. */
interface Grant {
  clientId: string;
  scopes: Set<string>;
  expiresAtMs: number;
}

export type IssueOutcome =
  | { ok: true; body: TokenResponse }
  | { ok: false; code: TokenErrorCode; description: string };

export type VerifyOutcome = { ok: true; clientId: string } | { ok: false; code: ErrorCode };

export function createAuth(options: { clients: SimulatedClient[]; tokenTtlSeconds: number }) {
  const grants = new Map<string, Grant>();
  const clients = new Map(options.clients.map((client) => [client.clientId, client]));

  /** `credentials`: the client's id and secret, from HTTP Basic or the form (`endpoints.clientCredentialsOf`). */
  const issue = (
    form: URLSearchParams,
    credentials: { clientId: string | undefined; clientSecret: string | undefined },
    nowMs: number,
  ): IssueOutcome => {
    const fail = (code: TokenErrorCode, description: string) => ({ ok: false, code, description }) as const;
    if (!form.has('grant_type')) return fail('bad_request', 'grant_type is required');
    if (form.get('grant_type') !== 'client_credentials') {
      return fail('unsupported_grant_type', 'grant_type must be client_credentials');
    }
    const client = clients.get(credentials.clientId ?? '');
    if (!client || client.clientSecret !== credentials.clientSecret) {
      return fail('invalid_client', 'unknown client or wrong secret');
    }
    const allowed = client.scopes ?? partnerScopes;
    const asked = (form.get('scope') ?? '').split(' ').filter(Boolean);
    const refused = asked.filter((scope) => !(allowed as string[]).includes(scope));
    if (refused.length > 0) {
      return fail('invalid_scope', `scope not granted to this client: ${refused.join(' ')}`);
    }
    const scopes = asked.length > 0 ? asked : allowed;
    const accessToken = `simpos_${crypto.randomUUID().replaceAll('-', '')}`;
    grants.set(accessToken, {
      clientId: client.clientId,
      scopes: new Set(scopes),
      expiresAtMs: nowMs + options.tokenTtlSeconds * 1000,
    });
    return {
      ok: true,
      body: {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: options.tokenTtlSeconds,
        scope: scopes.join(' '),
      },
    };
  };

  /** Which budget a token request spends (`endpoints.tokenBudgetKey`): right credentials, a wrong secret, or an unknown id. */
  const authenticate = (credentials: { clientId: string | undefined; clientSecret: string | undefined }) => {
    const client = clients.get(credentials.clientId ?? '');
    if (!client) return 'unknown-client' as const;
    return client.clientSecret === credentials.clientSecret
      ? ('authenticated' as const)
      : ('wrong-secret' as const);
  };

  /** missing_token, invalid_token, expired_token, insufficient_scope, or the client the token belongs to. */
  const verify = (authorization: string | null, scopes: readonly Scope[], nowMs: number): VerifyOutcome => {
    if (!authorization) return { ok: false, code: 'missing_token' };
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    const grant = match ? grants.get(match[1]!) : undefined;
    if (!grant) return { ok: false, code: 'invalid_token' };
    if (nowMs >= grant.expiresAtMs) return { ok: false, code: 'expired_token' };
    if (scopes.some((scope) => !grant.scopes.has(scope))) return { ok: false, code: 'insufficient_scope' };
    return { ok: true, clientId: grant.clientId };
  };

  /** The client a bearer token belongs to, valid or not, for rate limiting before the full check. */
  const clientOf = (authorization: string | null) =>
    grants.get(/^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '')?.clientId;

  return {
    issue,
    authenticate,
    verify,
    clientOf,
    /** Every token issued so far becomes unknown (`invalid_token`), as after a key rotation. */
    revokeAll: () => grants.clear(),
    /** Every token issued so far expires now (`expired_token`). */
    expireAll: (nowMs: number) => {
      for (const grant of grants.values()) grant.expiresAtMs = nowMs;
    },
  };
}
