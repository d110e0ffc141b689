// The simulated partner POS as a loopback HTTP server, and its OpenID Provider (seller login, spec v2.0), for the demo and tools.

// oidc-provider is loaded at the first start, its two expected notices held back (SL-12).
export { startQuietly as startPartnerOidcProvider } from './known-provider-notices.js';
export { toNodeListener } from './node-listener.js';
export {
  type BrowserLoginOptions,
  type BrowserLoginResult,
  loginAtPartnerPage,
  type SellerAtPage,
} from './oidc/browser-login.js';
export type { PartnerOidcProvider, PartnerOidcProviderOptions } from './oidc/partner-oidc-provider.js';
export type { PartnerOidcClient } from './oidc/provider-configuration.js';
export { ID_TOKEN_ALGORITHMS, type IdTokenAlgorithm } from './oidc/provider-keys.js';
export {
  type PartnerPosOidc,
  type PartnerPosServer,
  type PartnerPosTls,
  startPartnerPos,
} from './server.js';
