// oauth4webapi's failures, read into SellerLoginError codes by the step that failed; nothing of the original (its cause holds tokens) is kept.
import * as oauth from 'oauth4webapi';
import { type IdTokenFailure, SellerLoginError } from './seller-login-error.js';

/** The login step a failure happened in: the callback's parameters, the token exchange, the ID token's signature. */
export type LoginStep = 'callback' | 'token' | 'signature';

const claimOf = (error: oauth.OperationProcessingError) =>
  (error.cause as { claim?: unknown } | undefined)?.claim;

function idTokenFailure(error: oauth.OperationProcessingError): SellerLoginError {
  const claim = claimOf(error);
  if (claim === 'iss') return new SellerLoginError('issuer_mismatch');
  const reason: IdTokenFailure =
    error.code === oauth.JWT_TIMESTAMP_CHECK
      ? 'expired'
      : claim === 'nonce'
        ? 'nonce'
        : claim === 'aud' || claim === 'azp'
          ? 'audience'
          : error.message.includes('"alg"')
            ? 'algorithm'
            : 'signature';
  return new SellerLoginError('id_token_invalid', { reason });
}

/** Any failure of `step` as a SellerLoginError; one already is stays as it is. */
export function loginFailure(step: LoginStep, error: unknown): SellerLoginError {
  if (error instanceof SellerLoginError) return error;
  if (error instanceof oauth.AuthorizationResponseError) {
    return new SellerLoginError('access_denied', { providerError: error.error });
  }
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.WWWAuthenticateChallengeError) {
    const providerError =
      error instanceof oauth.ResponseBodyError ? error.error : error.cause[0]?.parameters.error;
    return new SellerLoginError('code_refused', providerError ? { providerError } : {});
  }
  if (step === 'signature') return new SellerLoginError('id_token_invalid', { reason: 'signature' });
  if (step === 'callback' && error instanceof Error) {
    return new SellerLoginError(error.message.includes('"iss"') ? 'issuer_mismatch' : 'state_mismatch');
  }
  if (error instanceof oauth.OperationProcessingError) return idTokenFailure(error);
  return new SellerLoginError('provider_error', { reason: 'refused' });
}
