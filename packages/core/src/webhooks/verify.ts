// Verifies a Standard Webhooks v1 delivery on WebCrypto (any runtime): secrets, headers, timestamp both ways, signature.
import { type Clock, systemClock } from '../clock/index.js';
import { fromBase64 } from './base64.js';
import type { WebhookEvent } from './events.js';
import { readWebhookHeaders, type WebhookHeadersInput } from './headers.js';
import { parseWebhookEvent } from './parse-event.js';
import { rawBodyBytes, type WebhookRawBody } from './raw-body.js';
import { webhookKey } from './secret.js';
import { signedContent, WEBHOOK_SIGNATURE_VERSION } from './signature.js';
import { WebhookVerificationError } from './verification-error.js';

/** Default tolerance between `webhook-timestamp` and the receiver's clock, both ways: 5 minutes. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

export interface VerifyWebhookOptions {
  /** The subscription's secrets (`whsec_...`); during a rotation, both: any one matching is enough. */
  secrets: string | readonly string[];
  /** Seconds `webhook-timestamp` may be older or newer than now (default 300). 0 means "this very second", never "off". */
  toleranceSeconds?: number;
  /** The receiver's clock (tests inject one). */
  clock?: Clock;
}

/** A delivery whose signature and timestamp were verified. */
export interface VerifiedWebhook {
  /** `webhook-id`: the same on every retry of one event; dedupe on it. */
  id: string;
  /** `webhook-timestamp`, unix seconds of the attempt. */
  timestamp: number;
  /** The body as text, exactly as signed. */
  body: string;
}

/** Verifies the signature and timestamp of a delivery; throws WebhookVerificationError with the failed check. */
export async function verifyWebhookSignature(
  rawBody: WebhookRawBody,
  headers: WebhookHeadersInput,
  options: VerifyWebhookOptions,
): Promise<VerifiedWebhook> {
  const keys = await Promise.all(secretList(options.secrets).map(webhookKey));
  const body = rawBodyBytes(rawBody);
  const { id, timestamp, signature } = readWebhookHeaders(headers);
  const missing = [!id && 'webhook-id', !timestamp && 'webhook-timestamp', !signature && 'webhook-signature'];
  if (!id || !timestamp || !signature) {
    const names = missing.filter(Boolean).join(', ');
    throw new WebhookVerificationError('webhook_missing_headers', `The delivery has no ${names} header.`);
  }
  const seconds = checkTimestamp(timestamp, options);
  const content = signedContent(id, timestamp, body);
  if (!(await anySignatureMatches(signature, keys, content))) {
    throw new WebhookVerificationError(
      'webhook_no_matching_signature',
      'No signature of the delivery matches any of the secrets (wrong secret, or a body changed after sending).',
    );
  }
  return { id, timestamp: seconds, body: new TextDecoder().decode(body) };
}

/** Verifies a delivery and parses its event: the receiving side in one call. */
export async function verifyWebhook(
  rawBody: WebhookRawBody,
  headers: WebhookHeadersInput,
  options: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  const verified = await verifyWebhookSignature(rawBody, headers, options);
  return parseWebhookEvent(verified.body);
}

function secretList(secrets: string | readonly string[]): readonly string[] {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0) {
    throw new WebhookVerificationError('webhook_bad_secret', 'No webhook secret was given: pass `secrets`.');
  }
  return list;
}

/** The timestamp in seconds, within the tolerance both ways (a future timestamp is refused like an old one). */
function checkTimestamp(header: string, options: VerifyWebhookOptions): number {
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (!Number.isSafeInteger(tolerance) || tolerance < 0) {
    throw new TypeError(
      'toleranceSeconds is whole seconds, 0 or more (0 means "this very second", not "off")',
    );
  }
  if (!/^\d{1,15}$/.test(header)) {
    throw new WebhookVerificationError('webhook_missing_headers', 'webhook-timestamp is not unix seconds.');
  }
  const seconds = Number(header);
  const now = Math.floor((options.clock ?? systemClock).now().getTime() / 1000);
  if (now - seconds > tolerance) {
    throw new WebhookVerificationError(
      'webhook_timestamp_too_old',
      `The delivery is ${now - seconds} s old, beyond the ${tolerance} s tolerance (a replay, or a slow clock here).`,
    );
  }
  if (seconds - now > tolerance) {
    throw new WebhookVerificationError(
      'webhook_timestamp_too_new',
      `The delivery is dated ${seconds - now} s in the future, beyond the ${tolerance} s tolerance (check this clock).`,
    );
  }
  return seconds;
}

/** Whether any `v1,` signature of the header verifies with any key (WebCrypto's verify compares in constant time). */
async function anySignatureMatches(
  header: string,
  keys: readonly CryptoKey[],
  content: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  const prefix = `${WEBHOOK_SIGNATURE_VERSION},`;
  const signatures = header
    .split(' ')
    .filter((part) => part.startsWith(prefix))
    .map((part) => fromBase64(part.slice(prefix.length)))
    .filter((bytes): bytes is Uint8Array<ArrayBuffer> => bytes !== undefined && bytes.length === 32);
  for (const key of keys) {
    for (const signature of signatures) {
      if (await crypto.subtle.verify('HMAC', key, signature, content)) return true;
    }
  }
  return false;
}
