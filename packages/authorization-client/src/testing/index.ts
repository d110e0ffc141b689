// Test helpers for users of @fin/authorization-client, loadable by any runner (no msw): the loopback sandbox, IMEIs, magic values, webhooks.
export { generateImei } from './imei.js';
export { type MagicValues, magicValues } from './magic-values.js';
export { sandboxNfeAccessKey } from './nfe-access-key.js';
export type { SandboxOptions } from './sandbox.js';
export { type RunningSandbox, type StartSandboxOptions, startSandbox } from './start-sandbox.js';
export { type SignWebhookInput, signWebhook, webhookEvents } from './webhooks.js';
