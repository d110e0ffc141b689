// A fetch over node:https for tests that reach a TLS server with (or without) a client certificate, independent of the clients' transport.
import { Agent, request } from 'node:https';
import type { SecureVersion } from 'node:tls';

/** What the TLS connection presents and trusts; without `cert` and `key`, no client certificate. */
export interface TlsIdentity {
  ca: string;
  cert?: string;
  key?: string;
  passphrase?: string;
  /** Default TLS 1.2; tests of old-protocol refusal lower it. */
  minVersion?: SecureVersion;
  maxVersion?: SecureVersion;
}

/** An answer larger than this is cut: tests read envelopes, not downloads. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch (a `Request` or a URL with init) over node:https, apart from the SDKs' own transport so a server's
 * TLS is tested by a client it does not share: every request on a fresh connection with `tls`, so each test
 * sees its own handshake and no socket outlives it; TLS 1.2 or higher unless `minVersion` says otherwise.
 */
export function httpsFetch(tls: TlsIdentity): typeof fetch {
  const old = tls.maxVersion !== undefined && tls.maxVersion < 'TLSv1.2';
  const agent = new Agent({
    keepAlive: false,
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
  return send as typeof fetch;
}
