// The node:http edge of a Web-standard handler: IncomingMessage to Request, Response back to ServerResponse.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

type FetchHandler = (request: Request) => Promise<Response>;

function toRequest(req: IncomingMessage, res: ServerResponse, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // The client hanging up aborts the request, so a slow simulated answer stops waiting.
  const abandoned = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abandoned.abort();
  });
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    signal: abandoned.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, { ...headers, 'content-length': body.byteLength });
  res.end(body);
}

/** A listener for `http.createServer` that hands every request to `handler` and writes its answer. */
export function toNodeListener(handler: FetchHandler, origin: string): RequestListener {
  return (req, res) => {
    handler(toRequest(req, res, origin))
      .then((response) => (res.destroyed ? undefined : send(res, response)))
      .catch((error: unknown) => res.destroy(error instanceof Error ? error : undefined));
  };
}
