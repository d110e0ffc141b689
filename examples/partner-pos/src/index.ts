// The simulated partner POS as a loopback HTTP server, and its OpenID Provider (seller login, spec v2.0), for the demo and tools.

export { toNodeListener } from './node-listener.js';
export {
  type BrowserLoginOptions,
  type BrowserLoginResult,
  loginAtPartnerPage,
  type SellerAtPage,
} from './oidc/browser-login.js';
export {
  type PartnerOidcProvider,
  type PartnerOidcProviderOptions,
  startPartnerOidcProvider,
} from './oidc/partner-oidc-provider.js';
export type { PartnerOidcClient } from './oidc/provider-configuration.js';
export { ID_TOKEN_ALGORITHMS, type IdTokenAlgorithm } from './oidc/provider-keys.js';
export { type PartnerPosServer, type PartnerPosTls, startPartnerPos } from './server.js';
