// The checks of the provider's discovery document against SL-1 (FAPI 2.0): PAR, PKCE, `iss`, client authentication, bound tokens, ID token algorithms.

import { ID_TOKEN_ALGORITHMS } from '@fin/pos-client';
import type { OidcCheck, OidcCheckContext } from './oidc-check.js';

const WHERE = 'discovery';
const listOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

function pushedRequests({ metadata, violation, finding }: OidcCheckContext) {
  if (typeof metadata().pushed_authorization_request_endpoint !== 'string') {
    violation(
      WHERE,
      'no pushed_authorization_request_endpoint: pushed authorization requests (RFC 9126) are not offered',
      'enable PAR with client authentication and publish its endpoint (FAPI 2.0)',
    );
  } else if (metadata().require_pushed_authorization_requests !== true) {
    finding(
      WHERE,
      'require_pushed_authorization_requests is not true: a client may still send a plain authorization request',
      'require PAR for every client and publish require_pushed_authorization_requests: true',
    );
  }
}

function pkceMethods({ metadata, violation, finding }: OidcCheckContext) {
  const methods = listOf(metadata().code_challenge_methods_supported);
  const fix = 'offer PKCE with S256 only: code_challenge_methods_supported: ["S256"]';
  if (!methods.includes('S256')) violation(WHERE, 'code_challenge_methods_supported does not list S256', fix);
  if (methods.includes('plain')) violation(WHERE, 'code_challenge_methods_supported offers `plain`', fix);
  const others = methods.filter((method) => method !== 'S256' && method !== 'plain');
  if (others.length > 0)
    finding(WHERE, `code_challenge_methods_supported also lists ${others.join(', ')}`, fix);
}

function issParameter({ metadata, violation }: OidcCheckContext) {
  if (metadata().authorization_response_iss_parameter_supported !== true) {
    violation(
      WHERE,
      'authorization_response_iss_parameter_supported is not true: the relying party cannot detect a mix-up',
      'send `iss` in every authorization response (RFC 9207) and publish authorization_response_iss_parameter_supported: true',
    );
  }
}

function clientAuthentication({ metadata, options, violation, finding }: OidcCheckContext) {
  const methods = listOf(metadata().token_endpoint_auth_methods_supported);
  const allowed = ['tls_client_auth', 'private_key_jwt'];
  const fix = 'authenticate clients by tls_client_auth (RFC 8705) and/or private_key_jwt only';
  if (!methods.some((method) => allowed.includes(method))) {
    violation(
      WHERE,
      'token_endpoint_auth_methods_supported lists neither tls_client_auth nor private_key_jwt',
      fix,
    );
  }
  const ours = options.client?.clientAuth;
  const used =
    ours === undefined ? undefined : ours === 'tls_client_auth' ? 'tls_client_auth' : 'private_key_jwt';
  if (used && !methods.includes(used)) {
    violation(
      WHERE,
      `token_endpoint_auth_methods_supported does not list ${used}, the method we are registered with`,
      fix,
    );
  }
  const weak = methods.filter((method) => !allowed.includes(method));
  if (weak.length > 0)
    finding(WHERE, `token_endpoint_auth_methods_supported also lists ${weak.join(', ')}`, fix);
}

function boundTokens({ metadata, violation }: OidcCheckContext) {
  const certificateBound = metadata().tls_client_certificate_bound_access_tokens === true;
  const dpop = listOf(metadata().dpop_signing_alg_values_supported).length > 0;
  if (!certificateBound && !dpop) {
    violation(
      WHERE,
      'neither tls_client_certificate_bound_access_tokens: true nor dpop_signing_alg_values_supported: tokens are not sender-constrained',
      'bind access tokens to the client certificate (RFC 8705) or to a DPoP key (RFC 9449), and publish it',
    );
  }
}

function signingAlgorithms({ metadata, violation, finding }: OidcCheckContext) {
  const algorithms = listOf(metadata().id_token_signing_alg_values_supported);
  const fix = 'sign ID tokens with PS256, ES256 or EdDSA only, and publish only those';
  const allowed: readonly string[] = ID_TOKEN_ALGORITHMS;
  if (!algorithms.some((alg) => allowed.includes(alg))) {
    violation(WHERE, 'id_token_signing_alg_values_supported lists none of PS256, ES256, EdDSA', fix);
  }
  const forbidden = algorithms.filter((alg) => alg === 'none' || /^HS/.test(alg));
  if (forbidden.length > 0) {
    violation(WHERE, `id_token_signing_alg_values_supported offers ${forbidden.join(', ')}`, fix);
  }
  const others = algorithms.filter((alg) => !allowed.includes(alg) && !forbidden.includes(alg));
  if (others.length > 0)
    finding(WHERE, `id_token_signing_alg_values_supported also lists ${others.join(', ')}`, fix);
  if (typeof metadata().jwks_uri !== 'string')
    violation(WHERE, 'no jwks_uri', 'publish the signing keys at jwks_uri');
}

export const discoveryChecks: readonly OidcCheck[] = [
  {
    id: 'oidc.par',
    title: 'Discovery: pushed authorization requests offered and required',
    run: pushedRequests,
  },
  { id: 'oidc.pkce-methods', title: 'Discovery: PKCE S256 offered, plain refused', run: pkceMethods },
  {
    id: 'oidc.iss-parameter',
    title: 'Discovery: the iss authorization response parameter',
    run: issParameter,
  },
  {
    id: 'oidc.client-auth',
    title: 'Discovery: tls_client_auth and/or private_key_jwt',
    run: clientAuthentication,
  },
  { id: 'oidc.bound-tokens', title: 'Discovery: certificate-bound or DPoP-bound tokens', run: boundTokens },
  {
    id: 'oidc.signing-algs',
    title: 'Discovery: ID tokens PS256/ES256/EdDSA, no none or HS*',
    run: signingAlgorithms,
  },
];
