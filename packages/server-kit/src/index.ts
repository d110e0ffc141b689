// Public entry point of @fin/server-kit: the Sales Authorization API as a Web-standard fetch, its ports and stores.
export { memoryStore } from './memory/memory-store.js';
export * from './ports/index.js';
export { checkR06Expired, effectiveStatus, R06_VALIDITY_MS, r06ExpiresAt } from './rules/r06-expiry.js';
export { checkR10Imei, isR10Active, R10_ACTIVE_STATUSES } from './rules/r10-imei.js';
