// What fin-pos-check --oidc needs from the partner: its issuer, our client registration there, and a way to log a test seller in.

import type { CheckTls, ProgressEvent } from '../options.js';

/**
 * Logs the partner's test seller in at `authorizationUrl` (the provider's page, partner-specific) and resolves
 * with the URL the provider redirected the browser to: the registered redirect URI with `code`, `state`, `iss`.
 */
export type OidcLogin = (authorizationUrl: string) => Promise<string>;

export interface OidcCheckOptions {
  /** The partner's issuer identifier: discovery at `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  /**
   * Our registration at the provider; without it (or without `login`) only the discovery checks run.
   * `clientAuth`: `'tls_client_auth'` (the `tls` certificate authenticates the client, tokens bound to it) or
   * the private key of `private_key_jwt` (with `dpop`, the key pair binding tokens).
   */
  client?: {
    clientId: string;
    redirectUri: string;
    clientAuth: 'tls_client_auth' | { privateKey: CryptoKey; kid?: string };
    dpop?: CryptoKeyPair;
  };
  /** The test seller's login: called once per authorization code the checks need (four). */
  login?: OidcLogin;
  /** Mutual TLS and the CA of the provider's certificate (`--cert`, `--key`, `--ca`); ignored when `fetch` is given. */
  tls?: CheckTls;
  /** Default the global fetch (over `tls` when given). */
  fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Told when a check starts and ends, for progress output. */
  onProgress?: (event: ProgressEvent) => void;
}
