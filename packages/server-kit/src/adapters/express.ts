// @fin/server-kit/express: the service as an Express router, mounted before or after express.json() and express.urlencoded().
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fromNode, readNodeBody, send } from '../http/node-adapter.js';
import { boundedBody, parsedBodyBytes } from '../http/parsed-body.js';
import type { BodyRead } from '../http/plain.js';
import { type AdaptedService, servesPath } from './service-paths.js';

export type { AdaptedService } from './service-paths.js';

/** What the router reads of Express's request: Node's, plus `ip`, and `rawBody` when the host keeps one. */
export type ExpressRequest = IncomingMessage & {
  /** Express's peer address (the socket's, unless the host set `trust proxy`). */
  ip?: string | undefined;
  /** The exact bytes a host's parser kept (`express.json({ verify })`, see docs/server-kit.md). */
  rawBody?: unknown;
  /** What a host's parser left (`express.json()`, `express.urlencoded()`), used when no `rawBody` was kept. */
  body?: unknown;
};

/** `app.use(financingRouter(service))`: an Express middleware (a router of the service's paths only). */
export type FinancingRouter = (
  req: ExpressRequest,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * Thrown (to Express's `next`) when a middleware consumed the body and left neither `req.body` nor
 * `req.rawBody`: there is nothing left to read. express.json(), express.urlencoded(), express.text() and
 * express.raw() always leave `req.body`.
 */
export class BodyAlreadyReadError extends Error {
  override readonly name = 'BodyAlreadyReadError';
  constructor() {
    super(
      'financingRouter: a middleware read this request before the financing router and left neither req.body ' +
        'nor req.rawBody; mount app.use(financingRouter(service)) before it, or keep the bytes as req.rawBody',
    );
  }
}

/** Whether a parser already read the stream (body-parser marks `_body`; a stream read to its end is spent). */
const consumed = (req: ExpressRequest) => req.readableEnded || (req as { _body?: unknown })._body === true;

/** Whether the request carries a body at all (RFC 9112: a length or a transfer coding). */
const hasBody = (req: ExpressRequest) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * The request's body for the service (decision FIT-3): the bytes the host kept as `rawBody`, else the
 * stream itself when no parser read it, else the body a parser left in `req.body`, turned back into bytes
 * (the service fingerprints the parsed value, DESIGN 9). `undefined` when a middleware spent the stream
 * and left nothing.
 */
function bodyOf(req: ExpressRequest): ((limit: number) => Promise<BodyRead>) | undefined {
  const kept = req.rawBody;
  if (kept instanceof Uint8Array) return (limit) => Promise.resolve(boundedBody(kept, limit));
  if (!consumed(req)) return (limit) => readNodeBody(req, limit);
  if (!hasBody(req)) return () => Promise.resolve({ ok: true, bytes: new Uint8Array(0) });
  const parsed = parsedBodyBytes(req.body, req.headers['content-type']);
  return parsed && ((limit) => Promise.resolve(boundedBody(parsed, limit)));
}

/**
 * An Express router for the service: the API's paths (`/v1/...`) and its `healthPaths`; any other
 * request goes on to the host's next route. Mount it at the root (`app.use(router)`), before or after
 * `express.json()` and `express.urlencoded()`: every request they pass on is answered as on node:http.
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
    const readBody = bodyOf(req);
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
