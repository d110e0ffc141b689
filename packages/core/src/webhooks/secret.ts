// Webhook secrets: `whsec_<base64>` (Standard Webhooks v1 symmetric), parsed into an HMAC-SHA256 WebCrypto key.
import { fromBase64, toBase64 } from './base64.js';
import { WebhookVerificationError } from './verification-error.js';

/** The prefix Standard Webhooks gives a symmetric secret. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Bytes of a secret we generate: 32 (the specification allows 24 to 64). */
const GENERATED_SECRET_BYTES = 32;

/** A new random secret, `whsec_` + base64 of 32 random bytes, for a subscription. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(GENERATED_SECRET_BYTES)));
}

/** The raw key bytes of `whsec_<base64>`; `webhook_bad_secret` with the reason, never the secret itself. */
export function webhookSecretBytes(secret: string): Uint8Array<ArrayBuffer> {
  if (typeof secret !== 'string' || secret.length === 0) throw badSecret('it is empty');
  if (/\s/.test(secret)) {
    throw badSecret('it contains whitespace (a newline or space copied from an environment file?); trim it');
  }
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) {
    throw badSecret(`it does not start with "${WEBHOOK_SECRET_PREFIX}"; pass it exactly as given to you`);
  }
  const bytes = fromBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length));
  if (!bytes || bytes.length === 0) throw badSecret(`what follows "${WEBHOOK_SECRET_PREFIX}" is not base64`);
  return bytes;
}

/** The HMAC-SHA256 key of a secret, for signing and verifying. */
export function webhookKey(secret: string): Promise<CryptoKey> {
  const bytes = webhookSecretBytes(secret);
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

const badSecret = (reason: string) =>
  new WebhookVerificationError('webhook_bad_secret', `The webhook secret is not usable: ${reason}.`);
