// The v2.0 seller login (spec 9.6, SL-1..SL-3) as an OpenAPI security scheme: the partner's OpenID Provider.
import { REPOSITORY_URL } from '../errors/docs-url.js';
import type { OpenIdConnectSecurityScheme } from './document.js';

export const sellerLoginSchemeName = 'sellerLogin';

/** Where the guide for both sides of the login is published. */
export const sellerLoginGuideUrl = `${REPOSITORY_URL}/blob/main/docs/seller-login.md`;

/**
 * The partner POS hosts an OpenID Provider on the FAPI 2.0 Security Profile; its discovery document must state
 * what SL-1 lists, and its ID token carries the SL-3 claims. No operation of this API takes its tokens: the
 * login gives the financing service the seller's session, which replaces `POST /v1/sellers/session`.
 */
export const sellerLoginScheme: OpenIdConnectSecurityScheme = {
  type: 'openIdConnect',
  openIdConnectUrl: 'https://pos.example.com/.well-known/openid-configuration',
  description: [
    "v2.0 seller login (spec 9.6): the seller types CPF and password on the partner POS's own page, never " +
      'through the financing service; it replaces credential passthrough (`POST /v1/sellers/session`, ' +
      'deprecated). The partner POS is an OpenID Provider on the FAPI 2.0 Security Profile; the URL is ' +
      '`<issuer>/.well-known/openid-configuration` of the issuer the partner registers the financing service ' +
      'with (the financing service pins it). Its discovery document must state (SL-1):',
    '',
    '- `pushed_authorization_request_endpoint`: PAR (RFC 9126) required, ' +
      '`require_pushed_authorization_requests: true`;',
    '- `code_challenge_methods_supported` with `S256`: PKCE S256 only, `plain` never accepted;',
    '- `authorization_response_iss_parameter_supported: true`: the `iss` response parameter (RFC 9207);',
    '- `token_endpoint_auth_methods_supported` with `tls_client_auth` (mutual TLS, RFC 8705) and/or ' +
      '`private_key_jwt`, the one the financing service is registered with; no `client_secret_*`;',
    '- sender-constrained access tokens: certificate-bound (`tls_client_certificate_bound_access_tokens: true`, ' +
      'RFC 8705) with `tls_client_auth`, DPoP-bound (`dpop_signing_alg_values_supported`, RFC 9449) with ' +
      '`private_key_jwt` (SL-8);',
    '- `id_token_signing_alg_values_supported` with PS256, ES256 or EdDSA only (never `none`, HS* or RS256), ' +
      'and a `jwks_uri`.',
    '',
    'Authorization codes are single-use and short-lived. The pushed request carries the `store_id` ' +
      "authorization-request parameter for a seller of several stores (SL-2); the ID token's `store_id` must " +
      'equal it. ID token claims on the `openid` scope (SL-3): `sub` (the seller id, stable), `name`, `cpf` ' +
      '(11 digits), `store_id`, `store_name`, `store_cnpj` (14 characters), `store_address` (`street`, `city`, ' +
      '`state`, `zipCode`), `role`, `is_manager` (absent means `role` is `MANAGER`), `job_title`, and `acr` ' +
      '(`urn:brasil:openbanking:loa2` for CPF + password), `amr`, `auth_time`.',
    '',
    `The provider checklist and the migration: [docs/seller-login.md](${sellerLoginGuideUrl}).`,
  ].join('\n'),
};
