// A real loopback HTTP server in front of a Web fetch handler, answering each request as the next fault says.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What happens to one request. `reset-after` and `truncate-after` let the handler run first (the write
 * happens) and lose the answer on the way back: the case where a retry must not execute the write twice.
 */
export type Fault =
  | 'pass'
  | 'reset'
  | 'reset-after'
  | 'hang'
  | '500'
  | '502'
  | '503'
  | '429'
  | 'truncate-after'
  | 'malformed';

export const faults: readonly Fault[] = [
  'pass',
  'reset',
  'reset-after',
  'hang',
  '500',
  '502',
  '503',
  '429',
  'truncate-after',
  'malformed',
];

export interface FaultServer {
  url: string;
  /** Faults for the next requests, in order; once used up, requests pass. `match` limits them to some paths. */
  plan(next: readonly Fault[], match?: (path: string) => boolean): void;
  /** Requests the server received, by path. */
  received(path?: string): number;
  close(): Promise<void>;
}

const GATEWAY_ERROR = (status: number) =>
  JSON.stringify({
    success: false,
    message: 'gateway error',
    timestamp: new Date().toISOString(),
    data: null,
    error: { code: status === 503 ? 'service_unavailable' : 'internal_error', message: 'gateway error' },
  });

const RATE_LIMITED = JSON.stringify({
  success: false,
  message: 'Muitas requisições.',
  timestamp: new Date(0).toISOString(),
  data: null,
  error: { code: 'rate_limit_exceeded', legacyCode: 'FA2001', message: 'Muitas requisições.' },
});

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(`${origin}${req.url ?? '/'}`, { method: req.method, headers, body });
}

async function send(res: ServerResponse, response: Response, truncate: boolean): Promise<void> {
  const text = await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!truncate) {
    res.end(text);
    return;
  }
  // Half the body, then the connection goes: the client sees JSON cut in the middle.
  res.write(text.slice(0, Math.floor(text.length / 2)));
  res.socket?.destroySoon();
}

/** `handler` is the real party (service.fetch or the simulated POS); the server only adds the faults. */
export async function startFaultServer(
  handler: (request: Request) => Promise<Response>,
): Promise<FaultServer> {
  let queue: Fault[] = [];
  let matches: (path: string) => boolean = () => true;
  const counts = new Map<string, number>();
  const hanging = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const fault = matches(path) ? (queue.shift() ?? 'pass') : 'pass';
    switch (fault) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        hanging.add(res);
        return;
      case '500':
      case '502':
      case '503':
        res
          .writeHead(Number(fault), { 'content-type': 'application/json' })
          .end(GATEWAY_ERROR(Number(fault)));
        return;
      case '429':
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' }).end(RATE_LIMITED);
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"success": true, "data": {"author');
        return;
    }
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    const response = await handler(await toRequest(req, origin));
    if (fault === 'reset-after') {
      await response.arrayBuffer();
      req.socket.destroy();
      return;
    }
    await send(res, response, fault === 'truncate-after');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    plan(next, match = () => true) {
      queue = [...next];
      matches = match;
    },
    received: (path) =>
      path === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(path) ?? 0),
    async close() {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
