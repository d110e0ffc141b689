// Errors of the @fin contract (`@fin/core/errors`): the catalog, the one error base and its kinds (API answer, local
// input, transport), and the builders of an error answer's details (schema failures, JSON nesting).

// The nesting bound a server checks on a JSON body before parsing it, and the detail its refusal carries.
export { exceedsJsonDepth, jsonDepthIssue, MAX_JSON_DEPTH } from '../json/nesting-depth.js';
export * from './catalog.js';
export { ERROR_CATALOG_URL, errorDocsUrl } from './docs-url.js';
export * from './fin-api-error.js';
export { FinError, type FinErrorInit, isFinError } from './fin-error.js';
export * from './fin-input-error.js';
export * from './schema-failure.js';
export * from './token-errors.js';
export * from './transport-errors.js';
