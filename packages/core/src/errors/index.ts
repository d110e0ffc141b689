// Errors of the @fin contract: the catalog, the one error base and its kinds (API answer, local input, transport).
export * from './catalog.js';
export { ERROR_CATALOG_URL, errorDocsUrl } from './docs-url.js';
export * from './fin-api-error.js';
export { FinError, type FinErrorInit, isFinError } from './fin-error.js';
export * from './fin-input-error.js';
export * from './schema-failure.js';
export * from './token-errors.js';
export * from './transport-errors.js';
