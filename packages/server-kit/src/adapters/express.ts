// @fin/server-kit/express: the service as an Express router, mounted before or after express.json() and express.urlencoded(), answering what they refuse.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fromNode, pathOf, readNodeBody, send } from '../http/node-adapter.js';
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

type Next = (error?: unknown) => void;

/**
 * `app.use(financingRouter(service))`: two Express middlewares mounted at once. The first answers the
 * service's paths; the second (an error middleware) answers, as node:http would, the requests of those
 * paths a host's parser mounted before it refused (malformed JSON, a body over the parser's limit).
 */
export type FinancingRouter = [
  route: (req: ExpressRequest, res: ServerResponse, next: Next) => void,
  parserRefusal: (error: unknown, req: ExpressRequest, res: ServerResponse, next: Next) => void,
];

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
type BodyReader = (limit: number) => Promise<BodyRead>;

function bodyOf(req: ExpressRequest): BodyReader | undefined {
  const kept = req.rawBody;
  if (kept instanceof Uint8Array) return (limit) => Promise.resolve(boundedBody(kept, limit));
  if (!consumed(req)) return (limit) => readNodeBody(req, limit);
  if (!hasBody(req)) return () => Promise.resolve({ ok: true, bytes: new Uint8Array(0) });
  const parsed = parsedBodyBytes(req.body, req.headers['content-type']);
  return parsed && ((limit) => Promise.resolve(boundedBody(parsed, limit)));
}

/**
 * The body a host's parser refused (body-parser's `entity.parse.failed` keeps the text it could not parse;
 * `entity.too.large` read past its limit), for the service to answer as on node:http; `undefined` for any
 * other error, which stays the host's.
 */
function refusedBody(error: unknown): BodyReader | undefined {
  const { type, body } = (error ?? {}) as { type?: unknown; body?: unknown };
  if (type === 'entity.too.large') return () => Promise.resolve({ ok: false, reason: 'too_large' });
  if (type === 'entity.parse.failed' && typeof body === 'string') {
    const bytes = new TextEncoder().encode(body);
    return (limit) => Promise.resolve(boundedBody(bytes, limit));
  }
  return undefined;
}

/**
 * An Express router for the service: the API's paths (`/v1/...`) and its `healthPaths`; any other
 * request goes on to the host's next route. Mount it at the root (`app.use(router)`), before or after
 * `express.json()` and `express.urlencoded()`: every request of its paths is answered as on node:http,
 * those the parsers pass on and those they refuse.
 */
export function financingRouter(service: AdaptedService): FinancingRouter {
  if (typeof service?.handle !== 'function' || typeof service.healthPaths !== 'object') {
    throw new TypeError('financingRouter: pass the service createFinancingService returned');
  }
  const ours = servesPath(service);
  const answer = (req: ExpressRequest, res: ServerResponse, next: Next, readBody: BodyReader) => {
    const source = req.ip ?? req.socket?.remoteAddress;
    service
      .handle({ ...fromNode(req), readBody, ...(source ? { source } : {}) })
      .then((plain) => send(res, plain), next);
  };
  const route = (req: ExpressRequest, res: ServerResponse, next: Next) => {
    if (!ours(pathOf(req))) return next();
    const readBody = bodyOf(req);
    if (!readBody) return next(new BodyAlreadyReadError());
    answer(req, res, next, readBody);
  };
  const parserRefusal = (error: unknown, req: ExpressRequest, res: ServerResponse, next: Next) => {
    const readBody = ours(pathOf(req)) && !res.headersSent ? refusedBody(error) : undefined;
    if (!readBody) return next(error);
    answer(req, res, next, readBody);
  };
  return [route, parserRefusal];
}
