// A fetch over node:https for tests that present a client certificate before the clients' own `tls` option exists.
import type { SecureVersion } from 'node:tls';
import { tlsFetch } from '../../packages/pos-check/src/tls-fetch.js';

/** What the TLS connection presents and trusts; without `cert` and `key`, no client certificate. */
export interface TlsIdentity {
  ca: string;
  cert?: string;
  key?: string;
  /** Default TLS 1.2; tests of old-protocol refusal lower it. */
  minVersion?: SecureVersion;
  maxVersion?: SecureVersion;
}

/**
 * fin-pos-check's fetch (a `Request` or a URL with init), every request on a fresh connection with
 * `identity`: each test sees its own handshake, and no socket outlives it.
 */
export const httpsFetch = (identity: TlsIdentity): typeof fetch =>
  tlsFetch({ ...identity, keepAlive: false }) as typeof fetch;
