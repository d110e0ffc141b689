// The request fingerprint of DESIGN 9: SHA-256 of method, path and the RFC 8785 canonical JSON of the parsed body.
import { hash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** Equal for requests that mean the same: key order and number spelling in the body do not count. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return hash('sha256', `${method}\n${path}\n${canonicalJson(body) ?? ''}`, 'hex');
}
