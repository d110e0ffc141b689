// The raw body of a delivery as the receiver got it: bytes or text, refused with a hint when it was already parsed.
import { WebhookVerificationError } from './verification-error.js';

/** The body exactly as received: a string, a Buffer/Uint8Array or an ArrayBuffer. */
export type WebhookRawBody = string | Uint8Array | ArrayBuffer;

/** The bytes of the raw body; `webhook_body_parsed` when a framework already turned it into an object. */
export function rawBodyBytes(rawBody: unknown): Uint8Array {
  if (typeof rawBody === 'string') return new TextEncoder().encode(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  throw new WebhookVerificationError(
    'webhook_body_parsed',
    rawBody === undefined || rawBody === null
      ? 'No webhook body was given: pass the raw request body (a string or Buffer) as it arrived.'
      : 'The webhook body was already parsed into an object: a signature covers the exact bytes sent, so pass ' +
          'the raw body (Express: express.raw({ type: "application/json" }); Fastify: a raw-body content parser; ' +
          'Fetch/Hono: await request.text()).',
  );
}
