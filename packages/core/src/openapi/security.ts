// The system layer of spec section 5 as an OpenAPI security scheme: OAuth 2.0 client credentials.
import { tokenPath } from '../endpoints/token.js';
import type { Scope } from '../schemas/oauth.js';
import type { HttpSecurityScheme, OAuth2SecurityScheme, SecurityRequirement } from './document.js';

/** What each scope permits, as spec section 5 writes it. */
export const scopeDescriptions: Record<Scope, string> = {
  'catalog:read': 'Partner POS: plans, products, services (and the rest of the daily catalog sync).',
  'inventory:read': 'Partner POS: IMEI lookup (and stock).',
  'sales:read': 'Partner POS: sale status (sale search).',
  'sales:authorize': 'Sales Authorization: authorize, confirm, cancel.',
};

export const securitySchemeName = 'systemToken';

export function oauth2Scheme(scopes: readonly Scope[]): OAuth2SecurityScheme {
  return {
    type: 'oauth2',
    description:
      'System token (RFC 6749 section 4.4, form-encoded request), valid 1 hour: renew at least 60 ' +
      'seconds before `expires_in`, never per call (issuance is limited to 60 per minute per client_id). ' +
      'It identifies the application, not the seller; send it as `Authorization: Bearer <token>`. ' +
      'Request only the scopes in use.',
    flows: {
      clientCredentials: {
        tokenUrl: tokenPath,
        scopes: Object.fromEntries(scopes.map((scope) => [scope, scopeDescriptions[scope]])),
      },
    },
  };
}

export const clientSecretBasicName = 'clientSecretBasic';

/** Client authentication at the token endpoint by HTTP Basic (RFC 6749 section 2.3.1). */
export const clientSecretBasicScheme: HttpSecurityScheme = {
  type: 'http',
  scheme: 'basic',
  description:
    'Token endpoint only: `client_secret_basic`, `client_id` and `client_secret` each form-urlencoded, then ' +
    '`id:secret` base64-encoded. The alternative, `client_secret_post`, puts both in the form (no header); ' +
    'one method per request.',
};

/**
 * `security` of an operation: the token endpoint takes HTTP Basic or the form's credentials (`{}`: no
 * header, the `client_secret_post` form); every other one the system token with its scopes.
 */
export const securityFor = (scopes: readonly Scope[] | 'none'): SecurityRequirement[] =>
  scopes === 'none' ? [{ [clientSecretBasicName]: [] }, {}] : [{ [securitySchemeName]: [...scopes] }];
