// The receiving side of contract-status webhooks: verify a delivery, or mount a ready receiver (Fetch; node:http is `/node`).
export type { WebhookAnswer, WebhookHandlerOptions } from './answer.js';
export { MAX_WEBHOOK_BODY_BYTES } from './body-limit.js';
export { createWebhookHandler } from './fetch-handler.js';
