// A fetch over node:https for tests that present a client certificate before the clients' own `tls` option exists.
import { request as httpsRequest } from 'node:https';
import type { SecureVersion } from 'node:tls';

/** What the TLS connection presents and trusts; without `cert` and `key`, no client certificate. */
export interface TlsIdentity {
  ca: string;
  cert?: string;
  key?: string;
  /** Default Node's (TLS 1.2); tests of old-protocol refusal lower it. */
  minVersion?: SecureVersion;
  maxVersion?: SecureVersion;
}

/** Statuses whose Response may carry no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` whose every request goes out on a fresh connection with `identity` (no connection reuse: each
 * test sees its own handshake). Takes what a client passes: a `Request` or a URL with init.
 */
export function httpsFetch(identity: TlsIdentity): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = httpsRequest(
        request.url,
        {
          method: request.method,
          headers: Object.fromEntries(request.headers),
          agent: false,
          signal: request.signal,
          ...identity,
          ...(identity.maxVersion && identity.maxVersion < 'TLSv1.2'
            ? { ciphers: 'DEFAULT@SECLEVEL=0' }
            : {}),
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.once('error', reject);
          incoming.once('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
            }
            const status = incoming.statusCode ?? 500;
            resolve(new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), { status, headers }));
          });
        },
      );
      outgoing.once('error', reject);
      outgoing.end(body);
    });
  };
}
