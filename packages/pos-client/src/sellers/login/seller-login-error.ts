// SellerLoginError: every failure of a seller login at the partner's OpenID Provider, named by a code; it never carries a secret.

/** Why a login failed (DESIGN 25). `provider_error`: the provider could not be reached or answered outside the contract. */
export type SellerLoginErrorCode =
  | 'access_denied'
  | 'state_mismatch'
  | 'issuer_mismatch'
  | 'store_mismatch'
  | 'id_token_invalid'
  | 'code_refused'
  | 'login_expired'
  | 'provider_error';

/** With `id_token_invalid`: what was wrong with the ID token (`claims`: a DESIGN 25 claim missing or malformed). */
export type IdTokenFailure = 'signature' | 'algorithm' | 'audience' | 'nonce' | 'expired' | 'claims';

/** With `provider_error`: which call failed and how. */
export type ProviderFailure = 'unreachable' | 'timeout' | 'too_large' | 'redirect' | 'discovery' | 'refused';

const messages: Record<SellerLoginErrorCode, string> = {
  access_denied: 'The seller did not authorize the login at the partner (cancelled or refused).',
  state_mismatch: 'The callback does not belong to this login transaction (state mismatch).',
  issuer_mismatch: 'The callback or ID token names another issuer than the one the login began with.',
  store_mismatch: 'The ID token names another store than the one the login asked for.',
  id_token_invalid: 'The ID token failed verification.',
  code_refused:
    'The partner refused the authorization code (spent, expired, or the PKCE verifier does not match).',
  login_expired: 'The login transaction expired before the callback arrived; begin a new login.',
  provider_error: 'The partner OpenID Provider could not be used.',
};

/**
 * Thrown by `pos.sellers.completeLogin` (and `beginLogin`) for every failure. It holds only `code`, `reason`
 * and the provider's OAuth `error` code: never a password, CPF, code, verifier or token, and no `cause`.
 */
export class SellerLoginError extends Error {
  override readonly name = 'SellerLoginError';
  readonly code: SellerLoginErrorCode;
  readonly reason?: IdTokenFailure | ProviderFailure;
  /** The OAuth `error` code the provider answered (`access_denied`, `invalid_grant` ...), when it answered one. */
  readonly providerError?: string;

  constructor(
    code: SellerLoginErrorCode,
    details: { reason?: IdTokenFailure | ProviderFailure; providerError?: string } = {},
  ) {
    super(details.reason ? `${messages[code]} (${details.reason})` : messages[code]);
    this.code = code;
    if (details.reason) this.reason = details.reason;
    // Only a bare OAuth error code: the provider's free text (`error_description`) is never copied.
    if (details.providerError && /^[\w.-]{1,64}$/.test(details.providerError)) {
      this.providerError = details.providerError;
    }
  }
}

export const isSellerLoginError = (error: unknown): error is SellerLoginError =>
  error instanceof SellerLoginError;
