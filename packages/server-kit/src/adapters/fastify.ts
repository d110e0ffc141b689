// @fin/server-kit/fastify: the service as a Fastify plugin, in its own encapsulated context, raw bodies for its routes only.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import { fromNode, send } from '../http/node-adapter.js';
import { type AdaptedService, API_PREFIX, probePaths } from './service-paths.js';

export type { AdaptedService } from './service-paths.js';

export interface FinancingPluginOptions {
  /** The service `createFinancingService` returned. */
  service: AdaptedService;
}

/**
 * `app.register(financingPlugin, { service })`: the API's routes (`/v1/*`) and the probes of its
 * `healthPaths`, beside the host's own routes. Register it without a `prefix` (the API's paths are the
 * spec's). The service reads its bodies itself, within its limits; the host's parsers (its JSON routes)
 * are left as they are, since the pass-through parser lives in this plugin's context only. The peer
 * address for the failed-token budget is Fastify's `request.ip` (the socket's, unless the host set
 * `trustProxy`).
 */
export const financingPlugin: FastifyPluginCallback<FinancingPluginOptions> = (instance, options, done) => {
  const { service } = options;
  if (typeof service?.handle !== 'function' || typeof service.healthPaths !== 'object') {
    done(new TypeError('financingPlugin: pass { service } as createFinancingService returned it'));
    return;
  }
  // This context only: its parent's parsers are copied on encapsulation, never changed from here.
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser('*', (_request, _payload, parsed) => parsed(null));
  const answer = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack(); // the answer is written by the service's own edge, bytes as the fetch edge writes them
    const source = request.ip;
    service.handle({ ...fromNode(request.raw), ...(source ? { source } : {}) }).then(
      (plain) => send(reply.raw, plain),
      (error: unknown) => reply.raw.destroy(error instanceof Error ? error : undefined),
    );
  };
  instance.all(`${API_PREFIX}*`, answer);
  for (const path of probePaths(service)) instance.all(path, answer);
  done();
};
