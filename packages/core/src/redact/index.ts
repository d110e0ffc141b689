// Redaction for logs: `redact` for any value, `redactText` for a message or a URL.
export { type Redacted, redact } from './redact.js';
export { maskSecretValues } from './secret-values.js';
export { redactText } from './text.js';
