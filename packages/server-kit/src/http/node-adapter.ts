// toNodeHandler(service): the node:http edge (also an Express/Connect middleware); no globals, no body parser.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { peerThumbprint } from './certificate-thumbprint.js';
import { ClientAbortedError } from './client-aborted.js';
import { boundedBody, parsedBodyBytes } from './parsed-body.js';
import type { BodyRead, PlainRequest, PlainResponse } from './plain.js';

/** What the adapter needs of a service: its plain-data core. */
export interface PlainHandler {
  handle(request: PlainRequest): Promise<PlainResponse>;
}

export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/** A body a host framework already parsed (Express `req.body`) once the stream is spent, as bytes. */
const parsedBody = (req: IncomingMessage): Uint8Array | undefined =>
  req.readableEnded
    ? parsedBodyBytes((req as IncomingMessage & { body?: unknown }).body, req.headers['content-type'])
    : undefined;

export function readNodeBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const parsed = parsedBody(req);
  if (parsed) return Promise.resolve(boundedBody(parsed, limit));
  if (Number(req.headers['content-length']) > limit) {
    req.resume();
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  // Reset before the service got to its body: the stream's `close` has already passed.
  if (req.destroyed && !req.readableEnded) return Promise.reject(new ClientAbortedError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        // Keep draining without buffering, so the socket can still carry our 413.
        req.off('data', onData);
        req.resume();
        resolve({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    let ended = false;
    req.on('data', onData);
    req.once('end', () => {
      ended = true;
      resolve({ ok: true, bytes: Buffer.concat(chunks, size) });
    });
    // A reset (`aborted`) or a close before the end: the client went away, which is no failure of ours.
    const gone = () => {
      if (!ended) reject(new ClientAbortedError());
    };
    req.once('error', gone);
    req.once('close', gone);
  });
}

export function fromNode(req: IncomingMessage): PlainRequest {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  // Mutual TLS (https.createServer({ requestCert: true, ... })): the certificate the peer proved it holds.
  const certificateSha256 = peerThumbprint(req.socket);
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: query === -1 ? url : url.slice(0, query),
    header(name) {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    readBody: (limit) => readNodeBody(req, limit),
    // The peer itself: a proxy's X-Forwarded-For is anyone's to write, so it is never trusted here.
    ...(req.socket?.remoteAddress ? { source: req.socket.remoteAddress } : {}),
    ...(certificateSha256 ? { certificateSha256 } : {}),
  };
}

export function send(res: ServerResponse, plain: PlainResponse): void {
  // Nobody is left to read it (the client went away mid-body).
  if (res.destroyed) return;
  const text = plain.body === null ? '' : JSON.stringify(plain.body);
  // A copy then grown, not a spread-begun literal (decision TR-5).
  const headers: Record<string, string | number> = Object.assign({}, plain.headers);
  headers['content-length'] = Buffer.byteLength(text);
  res.writeHead(plain.status, headers);
  res.end(text);
}

/**
 * A `(req, res, next?)` listener for `http.createServer` or Express. The service answers every request
 * it is given; `next(error)` is called only when the connection fails before an answer can be written.
 */
export function toNodeHandler(service: PlainHandler): NodeHandler {
  return (req, res, next) => {
    service.handle(fromNode(req)).then(
      (plain) => send(res, plain),
      (error: unknown) => {
        if (next) next(error);
        else res.destroy(error instanceof Error ? error : undefined);
      },
    );
  };
}
