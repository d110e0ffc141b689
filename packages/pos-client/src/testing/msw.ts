// msw adapter of the simulated partner: every request under `baseUrl` goes to the one simulation core.
import { type HttpHandler, http } from 'msw';
import type { SimulatedPos } from './simulated-pos.js';

/** Handlers for `setupServer(...)` (msw/node) or `setupWorker(...)`: the simulated partner at `baseUrl`. */
export function simulatedPosHandlers(sim: Pick<SimulatedPos, 'fetch'>, baseUrl: string): HttpHandler[] {
  const root = baseUrl.replace(/\/+$/, '');
  return [http.all(`${root}/*`, ({ request }) => sim.fetch(request))];
}
