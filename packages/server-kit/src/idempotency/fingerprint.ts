// The request fingerprint of DESIGN 9: SHA-256 of method, path and the RFC 8785 canonical JSON of the parsed body.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** Equal for requests that mean the same: key order and number spelling in the body do not count. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${path}\n${canonicalize(body) ?? ''}`, 'utf8')
    .digest('hex');
}
