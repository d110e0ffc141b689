// The Node side of a client's mutual TLS: one undici Agent presenting the certificate, made on the first request (the `node` build of `#tls-agent`).

/** What undici's `Agent` connects with: the client certificate, its key, the CAs and the lowest TLS version. */
export interface TlsConnect {
  cert: string;
  key: string;
  ca?: string[];
  passphrase?: string;
  minVersion: 'TLSv1.2';
}

/** The `Dispatcher` part of undici this file uses, typed here so the package's types do not need undici's. */
export interface Dispatcher {
  close(): Promise<void>;
}

/**
 * The dispatcher of one client, loaded when its first request leaves (undici is loaded only by a client with
 * `tls`) and kept for the client's life, so its connections pool.
 */
export function tlsDispatcher(connect: TlsConnect): () => Promise<Dispatcher> {
  let agent: Promise<Dispatcher> | undefined;
  return () => {
    agent ??= import('undici').then(({ Agent }) => new Agent({ connect }) as Dispatcher);
    return agent;
  };
}
