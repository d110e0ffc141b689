// Errors of the @fin contract: the catalog and the error type built on it.
export * from './catalog.js';
export * from './fin-api-error.js';
