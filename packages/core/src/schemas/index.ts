// Every zod schema of the contract; types are inferred from them, never written twice.
export * from './envelope.js';
export * from './oauth.js';
export * from './partner-pos.js';
export * from './primitives.js';
export * from './sales-authorization.js';
export { isStorableText, unstorableField } from './storable-text.js';
