// Standard Webhooks v1 symmetric signatures: base64 HMAC-SHA256 of `id.timestamp.body`, on WebCrypto.
import { toBase64 } from './base64.js';
import { WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from './headers.js';
import { webhookKey } from './secret.js';

/** The signature version of HMAC-SHA256 in Standard Webhooks. */
export const WEBHOOK_SIGNATURE_VERSION = 'v1';

const encoder = new TextEncoder();

/** The exact bytes signed: `${id}.${timestamp}.${body}`, the body as raw bytes or as text. */
export function signedContent(
  id: string,
  timestamp: number | string,
  body: string | Uint8Array,
): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(`${id}.${timestamp}.`);
  const tail = typeof body === 'string' ? encoder.encode(body) : body;
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

export interface SignWebhookPayloadInput {
  /** `webhook-id`: the same on every retry of one event. */
  id: string;
  /** `webhook-timestamp`: unix seconds of this attempt. */
  timestamp: number;
  /** The body exactly as it is sent. */
  body: string;
  /** Every active secret (`whsec_...`); one signature each, so a rotation loses nothing. */
  secrets: readonly string[];
}

/** The `webhook-signature` header value: `v1,<base64>` per secret, space-separated, in the order given. */
export async function signWebhookPayload(input: SignWebhookPayloadInput): Promise<string> {
  assertHeaderSafe(input.id, input.timestamp);
  if (input.secrets.length === 0) throw new TypeError('signWebhookPayload needs at least one secret');
  const content = signedContent(input.id, input.timestamp, input.body);
  const signatures = await Promise.all(
    input.secrets.map(async (secret) => {
      const mac = await crypto.subtle.sign('HMAC', await webhookKey(secret), content);
      return `${WEBHOOK_SIGNATURE_VERSION},${toBase64(new Uint8Array(mac))}`;
    }),
  );
  return signatures.join(' ');
}

/** The headers of one delivery attempt: `webhook-id`, `webhook-timestamp`, `webhook-signature` and the JSON content type. */
export async function signWebhookDelivery(input: SignWebhookPayloadInput): Promise<Record<string, string>> {
  return {
    'content-type': 'application/json',
    [WEBHOOK_ID_HEADER]: input.id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(input.timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: await signWebhookPayload(input),
  };
}

/** Standard Webhooks: neither the id nor the timestamp may hold a `.` (it would move the signed boundary). */
function assertHeaderSafe(id: string, timestamp: number): void {
  if (id.length === 0 || /[.\s]/.test(id))
    throw new TypeError('a webhook id is non-empty, without "." or spaces');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError('a webhook timestamp is whole unix seconds');
  }
}
