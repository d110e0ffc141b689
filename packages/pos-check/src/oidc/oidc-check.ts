// What an OpenID Provider check is, and what it is given: the discovery document, the relying party, the first login's code.
import type * as oauth from 'oauth4webapi';
import type { OidcCheckOptions } from './options.js';
import type { Authorized, RelyingParty } from './relying-party.js';

export interface OidcCheckContext {
  options: OidcCheckOptions;
  /** The run's fetch (over `tls` when given), counting requests. */
  send: NonNullable<OidcCheckOptions['fetch']>;
  /** The provider's discovery document; skips the check when it could not be read. */
  metadata(): oauth.AuthorizationServer;
  /** Our client at the provider; skips the check without a registration and a login hook. */
  relyingParty(): RelyingParty;
  /** What the run learned and shares between checks: the document, the code a full login redeemed. */
  facts: { metadata?: oauth.AuthorizationServer; redeemed?: Authorized };
  violation(where: string, message: string, fix: string): void;
  finding(where: string, message: string, fix: string): void;
}

export interface OidcCheck {
  /** Stable id, used in the JSON and JUnit reports: `oidc.pkce-enforced`. */
  id: string;
  title: string;
  run(context: OidcCheckContext): Promise<void> | void;
}
