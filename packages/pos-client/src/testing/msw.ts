// msw adapters of the simulated partner (every request under `baseUrl` goes to the one simulation core) and of its seller-login provider.
import { type HttpHandler, http } from 'msw';
import type { SimulatedSellerLogin } from './seller-login/simulated-seller-login.js';
import type { SimulatedPos } from './simulated-pos.js';

/** Handlers for `setupServer(...)` (msw/node) or `setupWorker(...)`: the simulated partner at `baseUrl`. */
export function simulatedPosHandlers(sim: Pick<SimulatedPos, 'fetch'>, baseUrl: string): HttpHandler[] {
  const root = baseUrl.replace(/\/+$/, '');
  return [http.all(`${root}/*`, ({ request }) => sim.fetch(request))];
}

/** Handlers for the kit's OpenID Provider (discovery, PAR, token, JWKS) at its `issuer`. */
export function simulatedSellerLoginHandlers(
  login: Pick<SimulatedSellerLogin, 'fetch' | 'issuer'>,
): HttpHandler[] {
  return [http.all(`${login.issuer}/*`, ({ request }) => login.fetch(request))];
}
