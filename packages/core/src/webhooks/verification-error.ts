// WebhookVerificationError: a delivery refused by the receiver, with a stable code saying which check failed.
import { FinError } from '../errors/fin-error.js';

/**
 * Why a delivery was refused. Stable forever, like the catalog's codes; local to the receiver (never sent by
 * the API), so outside the catalog like the transport's codes.
 */
export type WebhookVerificationCode =
  | 'webhook_missing_headers'
  | 'webhook_timestamp_too_old'
  | 'webhook_timestamp_too_new'
  | 'webhook_no_matching_signature'
  | 'webhook_body_parsed'
  | 'webhook_bad_secret'
  | 'webhook_invalid_payload';

/** A delivery that must not be trusted (or a receiver set up wrong: `webhook_bad_secret`, `webhook_body_parsed`). */
export class WebhookVerificationError extends FinError<WebhookVerificationCode> {
  override readonly name = 'WebhookVerificationError';

  constructor(code: WebhookVerificationCode, message: string) {
    super(message, { code });
  }
}

/** Narrows an unknown error to a WebhookVerificationError, optionally of one code. */
export const isWebhookVerificationError = (
  error: unknown,
  code?: WebhookVerificationCode,
): error is WebhookVerificationError =>
  error instanceof WebhookVerificationError && (code === undefined || error.code === code);
