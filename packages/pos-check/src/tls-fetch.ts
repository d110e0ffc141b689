// fin-pos-check's fetch over node:https when the partner wants a client certificate (--cert/--key/--ca): Node's global fetch cannot present one.
import { Agent, request } from 'node:https';
import type { SecureVersion } from 'node:tls';

/** The TLS side of a check run: PEM text, as read from the files given on the command line. */
export interface CheckTls {
  /** Client certificate (PEM) presented to a partner that asks for one. */
  cert?: string;
  key?: string;
  passphrase?: string;
  /** The CA (PEM) that signed the partner's server certificate, when it is not a public one. */
  ca?: string;
}

/** An answer larger than this is cut: the checker reads envelopes, not downloads. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export type ClosableFetch = ((input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) & {
  /** Closes the connections kept for reuse. */
  close(): void;
};

/**
 * A fetch whose connections present `tls` (and trust its `ca`), kept alive for the run and closed by
 * `close()`; TLS 1.2 or higher unless `minVersion` says otherwise (tests of old-protocol refusal).
 */
export function tlsFetch(
  tls: CheckTls & { minVersion?: SecureVersion; maxVersion?: SecureVersion; keepAlive?: boolean },
): ClosableFetch {
  const old = tls.maxVersion !== undefined && tls.maxVersion < 'TLSv1.2';
  const agent = new Agent({
    keepAlive: tls.keepAlive ?? true,
    minVersion: 'TLSv1.2',
    ...tls,
    // OpenSSL 3 refuses TLS 1.0/1.1 at its default security level: only a test asking for them lowers it.
    ...(old ? { ciphers: 'DEFAULT@SECLEVEL=0' } : {}),
  });
  const send = async (input: RequestInfo | URL, init?: RequestInit) => {
    const outgoing = new Request(input, init);
    const body = outgoing.body ? Buffer.from(await outgoing.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        outgoing.url,
        {
          method: outgoing.method,
          headers: Object.fromEntries(outgoing.headers),
          agent,
          signal: outgoing.signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.byteLength;
            if (size > MAX_BODY_BYTES) res.destroy(new Error(`answer larger than ${MAX_BODY_BYTES} bytes`));
            else chunks.push(chunk);
          });
          res.once('error', reject);
          res.once('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
            }
            const status = res.statusCode ?? 502;
            resolve(new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, headers }));
          });
        },
      );
      req.once('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
      req.end(body);
    });
  };
  return Object.assign(send, { close: () => agent.destroy() });
}
