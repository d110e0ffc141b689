// Public entry point of @fin/core: the shared contract of the @fin SDKs.
export * from './errors/index.js';
export * as money from './money/index.js';
export * from './openapi/index.js';
export * from './redact/index.js';
export type * from './schemas/index.js';
export * as schemas from './schemas/index.js';
