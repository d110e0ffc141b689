// A hostile partner on loopback: redirects, stalls, drips, huge bodies in front of a real handler; and a host that records.
import { once } from 'node:events';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, type ServerOptions as TlsServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ClientTlsOptions } from '@fin/core/transport';
import { Agent } from 'undici';
import { makeTestPki, type TestPki } from '../../support/certificates.js';

/**
 * How the suite's peers are reached: plain HTTP, or mutual TLS: `tls` (the server's key, certificate and
 * the CA that signed the clients') for the peers, `client` (the certificate the clients present, through
 * `clientTransport`): every case of the suite then reruns over TLS, nothing else changes.
 */
export interface PeerTransport {
  tls?: TlsServerOptions;
  client?: ClientTlsOptions;
}

/**
 * Mutual TLS on loopback: the server (TLS 1.2 at least) asks every client for a certificate `pki`'s CA
 * signed; the clients present `clientName`'s. Default a test PKI made now.
 */
export function mutualTlsTransport(
  pki: TestPki = makeTestPki(['hostile-suite']),
  clientName = 'hostile-suite',
): PeerTransport & { tls: TlsServerOptions; client: ClientTlsOptions } {
  const client = pki.clients[clientName];
  if (!client) throw new Error(`the test PKI has no client ${clientName}`);
  return {
    tls: {
      key: pki.server.key,
      cert: pki.server.cert,
      ca: pki.ca,
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    },
    client: { cert: client.cert, key: client.key, ca: pki.ca },
  };
}

/**
 * The transport the whole hostile suite runs on, chosen here and nowhere else: plain HTTP, or mutual TLS
 * when `FIN_SUITE_TRANSPORT=mtls` (hostile-mtls.test.ts sets it and reruns the suites' files).
 */
export const suiteTransport: PeerTransport =
  process.env.FIN_SUITE_TRANSPORT === 'mtls' ? mutualTlsTransport() : {};

/** What a hostile peer does with one request instead of (or before) answering it properly. */
export type Misbehaviour =
  | { kind: 'redirect'; status: 301 | 302 | 303 | 307 | 308; location: string }
  | { kind: 'stall' }
  | { kind: 'drip'; everyMs: number }
  | { kind: 'huge'; bytes: number; announce: boolean; body?: (filler: string) => string };

export interface HostilePeer {
  url: string;
  /** Requests that reached the peer, as `METHOD /path` (query left out). */
  received: string[];
  /** Answers the peer began but could not finish because the client hung up (the socket released). */
  released(): number;
  /** Connections (TCP, or TLS handshakes completed) the peer has accepted: 1 for many calls when they are reused. */
  connections(): number;
  close(): Promise<void>;
}

export interface RecordingHost {
  url: string;
  /** Everything it received: method, URL, headers and body text. Must stay empty. */
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  close(): Promise<void>;
}

const scheme = (transport: PeerTransport) => (transport.tls ? 'https' : 'http');

function serve(
  transport: PeerTransport,
  onRequest: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  return transport.tls ? createHttpsServer(transport.tls, onRequest) : createHttpServer(onRequest);
}

async function listen(server: Server, host: string, transport: PeerTransport) {
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let connections = 0;
  server.on(transport.tls ? 'secureConnection' : 'connection', () => connections++);
  const close = async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close').catch(() => {});
  };
  return { url: `${scheme(transport)}://${host}:${port}`, connections: () => connections, close };
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A second loopback host (127.0.0.2) that records whatever reaches it, and answers 200 `{}`. */
export async function startRecordingHost(transport: PeerTransport = {}): Promise<RecordingHost> {
  const requests: RecordingHost['requests'] = [];
  const server = serve(transport, (req, res) => {
    void readAll(req).then((body) => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: body.toString(),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { requests, ...(await listen(server, '127.0.0.2', transport)) };
}

/** Headers first, then a JSON prefix, then a space every `everyMs` (valid JSON whitespace) until the client leaves. */
function drip(res: ServerResponse, everyMs: number | undefined) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"success":true');
  if (everyMs === undefined) return;
  const timer = setInterval(() => res.write(' '), everyMs);
  res.on('close', () => clearInterval(timer));
}

/** A body of `bytes` (the filler inside `body`), streamed with back-pressure, announced by Content-Length or not. */
async function huge(res: ServerResponse, m: Extract<Misbehaviour, { kind: 'huge' }>) {
  const shape = m.body ?? ((filler: string) => `{"filler":"${filler}"}`);
  const [head = '', tail = ''] = shape('@FILL@').split('@FILL@');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (m.announce)
    headers['content-length'] = String(Buffer.byteLength(head) + m.bytes + Buffer.byteLength(tail));
  res.writeHead(200, headers);
  res.write(head);
  const chunk = 'x'.repeat(64 * 1024);
  for (let sent = 0; sent < m.bytes && !res.destroyed; sent += chunk.length) {
    if (!res.write(chunk.slice(0, Math.min(chunk.length, m.bytes - sent)))) {
      await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
  }
  if (!res.destroyed) res.end(tail);
}

async function answer(
  handler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
) {
  const body = await readAll(req);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value);
  const response = await handler(
    new Request(`${origin}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body: body.length > 0 ? new Uint8Array(body) : undefined,
    }),
  );
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'content-encoding') out[name] = value;
  });
  res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
}

/**
 * A partner (or the financing service) on 127.0.0.1 that answers through `handler`, except for the requests
 * `misbehave` picks: those get the misbehaviour instead.
 */
export async function startHostilePeer(
  handler: (request: Request) => Promise<Response>,
  misbehave: (method: string, path: string) => Misbehaviour | undefined,
  transport: PeerTransport = {},
): Promise<HostilePeer> {
  const received: string[] = [];
  let released = 0;
  let origin = '';
  const server = serve(transport, (req, res) => {
    const path = new URL(req.url ?? '/', 'http://peer').pathname;
    const method = req.method ?? 'GET';
    received.push(`${method} ${path}`);
    res.on('close', () => {
      if (!res.writableFinished) released++;
    });
    const m = misbehave(method, path);
    const done = (async () => {
      if (!m) return answer(handler, req, res, origin);
      await readAll(req);
      if (m.kind === 'redirect') return void res.writeHead(m.status, { location: m.location }).end();
      if (m.kind === 'huge') return huge(res, m);
      return drip(res, m.kind === 'drip' ? m.everyMs : undefined);
    })();
    done.catch(() => res.destroy());
  });
  const listening = await listen(server, '127.0.0.1', transport);
  origin = listening.url;
  return { received, released: () => released, ...listening };
}

/** A bare fetch that reaches the suite's peers: the global one, or one presenting the client certificate. */
export function peerFetch(transport: PeerTransport = {}): typeof fetch {
  if (!transport.client) return fetch;
  const { cert, key, ca } = transport.client;
  const agent = new Agent({ connect: { cert: String(cert), key: String(key), ca: String(ca) } });
  return (input, init) => fetch(input, { ...init, dispatcher: agent } as RequestInit);
}

/** The clients' side of `PeerTransport`: extra options for PosClient / AuthorizationClient (mTLS adds `tls`). */
export function clientTransport(transport: PeerTransport = {}): { tls?: ClientTlsOptions } {
  return transport.client ? { tls: transport.client } : {};
}
