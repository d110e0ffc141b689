// The Node side of mutual TLS: one undici Agent presenting the certificate, made on the first request (the `node` build of `#tls-agent`).

/** What undici's `Agent` connects with: the client certificate and its key (if any), the CAs, the lowest TLS version. */
export interface TlsConnect {
  cert?: string;
  key?: string;
  ca?: string[];
  passphrase?: string;
  minVersion: 'TLSv1.2';
}

/** The `Dispatcher` part of undici this file uses, typed here so the package's types do not need undici's. */
export interface Dispatcher {
  close(): Promise<void>;
}

/**
 * The dispatcher of one fetch, loaded when its first request leaves (undici is loaded only where `tls` is
 * used) and kept until `close()`, so its connections pool.
 */
export function tlsDispatcher(connect: TlsConnect): { get(): Promise<Dispatcher>; close(): Promise<void> } {
  let agent: Promise<Dispatcher> | undefined;
  return {
    get: () => {
      agent ??= import('undici').then(({ Agent }) => new Agent({ connect }) as Dispatcher);
      return agent;
    },
    close: async () => {
      const closing = agent;
      agent = undefined;
      await (await closing)?.close();
    },
  };
}
