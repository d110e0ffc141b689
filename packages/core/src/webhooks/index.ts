// Contract-status webhooks (spec v1.1), Standard Webhooks v1 symmetric: event schemas, signing and verification, once.

export { WEBHOOK_DELIVERY_TIMEOUT_MS } from './delivery.js';
export * from './events.js';
export * from './headers.js';
export { parseWebhookEvent } from './parse-event.js';
export type { WebhookRawBody } from './raw-body.js';
export { generateWebhookSecret, WEBHOOK_SECRET_PREFIX, webhookSecretBytes } from './secret.js';
export {
  type SignWebhookPayloadInput,
  signWebhookDelivery,
  signWebhookPayload,
  WEBHOOK_SIGNATURE_VERSION,
} from './signature.js';
export * from './verification-error.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookSignature,
} from './verify.js';
