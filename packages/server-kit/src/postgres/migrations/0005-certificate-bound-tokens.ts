// Migration 5 (issue 29): the RFC 8705 certificate binding of a token issued over mutual TLS.
import type { Migration } from './migration.js';

/**
 * `certificate_sha256` is the `cnf` `x5t#S256` of a token issued over mutual TLS (base64url SHA-256 of
 * the client certificate's DER); NULL for a token not bound, as every token issued by an older release.
 */
export const certificateBoundTokens: Migration = {
  version: 5,
  name: 'certificate-bound tokens',
  sql: /* sql */ `
ALTER TABLE fin_tokens ADD COLUMN certificate_sha256 text;
`,
};
