// The pure core's request and response: plain data, so the core knows no server and answers can be stored.
import type { StoredResponse } from '../ports/records.js';

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'too_large' };

/** What the core reads of a request; each adapter (fetch, node:http) builds one. */
export interface PlainRequest {
  /** Upper-case method. */
  method: string;
  /** Path without the query string, e.g. `/v1/sales/authorize`. */
  path: string;
  /** A header by lower-case name; repeated headers joined with `, `. */
  header(name: string): string | undefined;
  /** The body, read at most `limit` bytes (more is `too_large`, and the rest is not buffered). */
  readBody(limit: number): Promise<BodyRead>;
  /** Where the request came from (the peer address), when the adapter knows it: failed token requests are limited per source. */
  source?: string;
  /**
   * The RFC 8705 `x5t#S256` (base64url SHA-256 of the DER) of the client certificate the TLS peer proved
   * it holds, when the adapter knows it (mutual TLS, docs/mtls.md).
   */
  certificateSha256?: string;
}

/** `{ status, headers, body }`: the core's answer, turned into HTTP only at the edge. */
export type PlainResponse = StoredResponse;
