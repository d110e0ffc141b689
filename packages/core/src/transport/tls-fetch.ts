// Mutual TLS of a client: the `tls` option checked, then one undici Agent presenting its certificate (`./tls-agent.js`, per runtime) given to fetch as its dispatcher.
import { FinInputError } from '../errors/index.js';
import { type TlsConnect, tlsDispatcher } from './tls-agent.js';

/** PEM text or its bytes. */
export type Pem = string | Uint8Array;

/** The client certificate a client presents (mutual TLS, spec section 5), and the CA it trusts. */
export interface ClientTlsOptions {
  /** The client certificate (PEM), with its chain if any. */
  cert: Pem;
  /** Its private key (PEM). Never logged, never in an error. */
  key: Pem;
  /** CA certificate(s) the server's certificate must chain to; default Node's trusted roots. */
  ca?: Pem | readonly Pem[];
  /** Passphrase of an encrypted `key`. */
  passphrase?: string;
}

/** The lowest TLS version a client accepts (spec section 5: TLS 1.2 or higher). */
export const MIN_TLS_VERSION = 'TLSv1.2' as const;

export type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

const isPem = (value: unknown): value is Pem =>
  (typeof value === 'string' && value.trim() !== '') || (value instanceof Uint8Array && value.length > 0);

/** PEM bytes as the text they hold (Node's TLS takes strings or Buffers, never a bare Uint8Array). */
const pemText = (pem: Pem): string => (typeof pem === 'string' ? pem : new TextDecoder().decode(pem));

/** A `tls` option without a certificate or key, or with something else in `ca`, is refused when the client is made. */
function checkTls(tls: ClientTlsOptions): void {
  const bad = (field: string, issue: string) =>
    new FinInputError({ code: 'validation_error', details: [{ field: `tls.${field}`, issue }] });
  if (!isPem(tls.cert)) throw bad('cert', 'the client certificate, PEM text or bytes');
  if (!isPem(tls.key)) throw bad('key', 'the private key of the certificate, PEM text or bytes');
  const cas = tls.ca === undefined ? [] : Array.isArray(tls.ca) ? tls.ca : [tls.ca];
  if (!cas.every(isPem)) throw bad('ca', 'CA certificates, PEM text or bytes');
  if (tls.passphrase !== undefined && typeof tls.passphrase !== 'string') throw bad('passphrase', 'a string');
}

/**
 * A fetch that sends every request through one undici 7 `Agent` presenting `tls` (TLS 1.2 at least): the
 * global fetch takes it as its `dispatcher` (undici's own fetch refuses the `Request` ky passes). The Agent
 * pools its connections for the client's life; `base` (the `fetch` option, else the global fetch when each
 * request leaves) sends. Outside Node the published build refuses `tls` here, when the client is made.
 */
export function tlsFetch(tls: ClientTlsOptions, base: Fetch | undefined): Fetch {
  checkTls(tls);
  const cas = tls.ca === undefined ? undefined : (Array.isArray(tls.ca) ? tls.ca : [tls.ca]).map(pemText);
  const connect: TlsConnect = {
    cert: pemText(tls.cert),
    key: pemText(tls.key),
    ...(cas && { ca: cas }),
    ...(tls.passphrase !== undefined && { passphrase: tls.passphrase }),
    minVersion: MIN_TLS_VERSION,
  };
  const dispatcher = tlsDispatcher(connect);
  return async (input, init) => {
    const send = base ?? globalThis.fetch;
    return send(input, { ...init, dispatcher: await dispatcher() } as RequestInit);
  };
}
