// docsUrl of an error: the code's own entry (one anchor per code) in docs/errors.md, under the repository's URL.
import { type ErrorCode, isKnownErrorCode } from './catalog.js';

/** The repository the packages' `repository` and `homepage` fields name. */
export const REPOSITORY_URL = 'https://example.invalid/fin-sdks';

/** docs/errors.md on the repository's main branch: the error catalog page. */
export const ERROR_CATALOG_URL = `${REPOSITORY_URL}/blob/main/docs/errors.md`;

/** The anchor of a code's row in docs/errors.md: the code itself (snake_case, stable forever). */
export const errorAnchor = (code: string): string => code;

/** `https://.../docs/errors.md#total_mismatch` for a catalog code; undefined for a code this version does not know. */
export function errorDocsUrl(code: ErrorCode): string;
export function errorDocsUrl(code: string): string | undefined;
export function errorDocsUrl(code: string): string | undefined {
  return isKnownErrorCode(code) ? `${ERROR_CATALOG_URL}#${errorAnchor(code)}` : undefined;
}
