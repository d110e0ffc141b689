// @fin/server-kit/express: the service as an Express router that reads its request bytes itself, before or after express.json().
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fromNode, readNodeBody, send } from '../http/node-adapter.js';
import type { BodyRead } from '../http/plain.js';
import { type AdaptedService, servesPath } from './service-paths.js';

export type { AdaptedService } from './service-paths.js';

/** What the router reads of Express's request: Node's, plus `ip`, and `rawBody` when the host keeps one. */
export type ExpressRequest = IncomingMessage & {
  /** Express's peer address (the socket's, unless the host set `trust proxy`). */
  ip?: string | undefined;
  /** The exact bytes a host's parser kept (`express.json({ verify })`, see docs/server-kit.md). */
  rawBody?: unknown;
};

/** `app.use(financingRouter(service))`: an Express middleware (a router of the service's paths only). */
export type FinancingRouter = (
  req: ExpressRequest,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** Thrown (to Express's `next`) when a parser consumed the body and kept no exact bytes of it. */
export class BodyAlreadyReadError extends Error {
  override readonly name = 'BodyAlreadyReadError';
  constructor() {
    super(
      'financingRouter: a body parser (express.json() or express.urlencoded()) read this request before the ' +
        'financing router and kept no raw bytes; mount app.use(financingRouter(service)) before the parsers, ' +
        'or keep the bytes with express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })',
    );
  }
}

/** Whether a parser already read the stream (body-parser marks `_body`; a stream read to its end is spent). */
const consumed = (req: ExpressRequest) => req.readableEnded || (req as { _body?: unknown })._body === true;

/** Whether the request carries a body at all (RFC 9112: a length or a transfer coding). */
const hasBody = (req: ExpressRequest) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * The exact request bytes: the host's kept `rawBody`, else the stream itself; never a parsed body turned
 * back into JSON (its numbers, key order and duplicates would not be what the client sent). `undefined`
 * when a parser spent the stream and kept nothing.
 */
function exactBody(req: ExpressRequest): ((limit: number) => Promise<BodyRead>) | undefined {
  const kept = req.rawBody;
  if (kept instanceof Uint8Array) {
    return (limit) =>
      Promise.resolve(
        kept.byteLength > limit ? { ok: false, reason: 'too_large' } : { ok: true, bytes: kept },
      );
  }
  if (!consumed(req)) return (limit) => readNodeBody(req, limit);
  return hasBody(req) ? undefined : () => Promise.resolve({ ok: true, bytes: new Uint8Array(0) });
}

/**
 * An Express router for the service: the API's paths (`/v1/...`) and its `healthPaths`; any other
 * request goes on to the host's next route. Mount it at the root (`app.use(router)`), before or after
 * `express.json()`: see {@link BodyAlreadyReadError} for the one case it refuses.
 */
export function financingRouter(service: AdaptedService): FinancingRouter {
  if (typeof service?.handle !== 'function' || typeof service.healthPaths !== 'object') {
    throw new TypeError('financingRouter: pass the service createFinancingService returned');
  }
  const ours = servesPath(service);
  return (req, res, next) => {
    const request = fromNode(req);
    if (!ours(request.path)) {
      next();
      return;
    }
    const readBody = exactBody(req);
    if (!readBody) {
      next(new BodyAlreadyReadError());
      return;
    }
    const source = req.ip ?? req.socket?.remoteAddress;
    service
      .handle({ ...request, readBody, ...(source ? { source } : {}) })
      .then((plain) => send(res, plain), next);
  };
}
