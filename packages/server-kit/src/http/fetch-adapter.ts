// The Web-standard edge: a Request becomes a PlainRequest, a PlainResponse becomes a Response.
import { thumbprintOfDer } from './certificate-thumbprint.js';
import { ClientAbortedError } from './client-aborted.js';
import type { BodyRead, PlainRequest, PlainResponse } from './plain.js';

/** Reads a Web stream up to `limit` bytes; stops (and cancels the stream) as soon as it is exceeded. */
async function readLimited(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<BodyRead> {
  if (!stream) return { ok: true, bytes: new Uint8Array(0) };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // A body stream that errors is a peer that went away mid-body (Hono's node server, Deno, Bun alike).
    const { done, value } = await reader.read().catch(() => {
      throw new ClientAbortedError();
    });
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, reason: 'too_large' };
    }
    chunks.push(value);
  }
  return { ok: true, bytes: Buffer.concat(chunks, size) };
}

/** What a host knows of a request beyond it (Deno's `info.remoteAddr.hostname`, Bun's `server.requestIP`). */
export interface RequestInfo {
  /** The peer address: failed token requests are limited per source too. */
  source?: string;
  /**
   * The DER of the client certificate the TLS peer presented (Node: `socket.getPeerCertificate().raw`),
   * for mutual TLS: certificate-bound clients and tokens (docs/mtls.md).
   */
  peerCertificate?: Uint8Array;
}

export function fromRequest(request: Request, info: RequestInfo = {}): PlainRequest {
  const der = info.peerCertificate;
  return {
    method: request.method.toUpperCase(),
    path: new URL(request.url).pathname,
    header: (name) => request.headers.get(name) ?? undefined,
    readBody: (limit) => {
      const declared = Number(request.headers.get('content-length'));
      if (declared > limit) return Promise.resolve({ ok: false, reason: 'too_large' });
      return readLimited(request.body, limit);
    },
    ...(info.source ? { source: info.source } : {}),
    ...(der && der.byteLength > 0 ? { certificateSha256: thumbprintOfDer(der) } : {}),
  };
}

export function toResponse(plain: PlainResponse): Response {
  return new Response(plain.body === null ? null : JSON.stringify(plain.body), {
    status: plain.status,
    // A copy: answers share header constants, and a host's Response (@hono/node-server's) may write
    // the content-length into the object it is given, truncating the next answer to that length.
    headers: { ...plain.headers },
  });
}
