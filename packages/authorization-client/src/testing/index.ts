// Test helpers for users of @fin/authorization-client: msw handlers playing the API, and their magic values.
export { authorizationHandlers, SANDBOX_BASE_URL, type SandboxHandlersOptions } from './handlers.js';
export { type MagicValues, magicValues } from './magic-values.js';
export { sandboxNfeAccessKey } from './nfe-access-key.js';
export { type SignWebhookInput, signWebhook, webhookEvents } from './webhooks.js';
