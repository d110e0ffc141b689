// Mutual TLS: the `tls` and `mutualTls` options checked, and the one fetch presenting a client certificate (undici Agent per runtime, `./tls-agent.js`).
import { FinInputError } from '../errors/index.js';
import { type TlsConnect, tlsDispatcher } from './tls-agent.js';
import type { ClientTlsOptions, MutualTls, Pem } from './types.js';

/** The lowest TLS version a client accepts (spec section 5: TLS 1.2 or higher). */
export const MIN_TLS_VERSION = 'TLSv1.2' as const;

export type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** What `tlsFetch` presents and trusts: a client's `tls`, or only the CA of a server (no certificate). */
export type TlsFetchOptions = Partial<ClientTlsOptions>;

/** A fetch over its own connection pool; `close()` ends the pool's connections. */
export type TlsFetch = Fetch & { close(): Promise<void> };

const SETTINGS: readonly unknown[] = [undefined, 'optional', 'required'];

/** Whether `value` is a `MutualTls` (or absent): a misspelt 'required' must never mean optional. */
export const isMutualTls = (value: unknown): value is MutualTls | undefined => SETTINGS.includes(value);

const isPem = (value: unknown): value is Pem =>
  (typeof value === 'string' && value.trim() !== '') || (value instanceof Uint8Array && value.length > 0);

/** PEM bytes as the text they hold (Node's TLS takes strings or Buffers, never a bare Uint8Array). */
const pemText = (pem: Pem): string => (typeof pem === 'string' ? pem : new TextDecoder().decode(pem));

const refuse = (field: string, issue: string, message?: string) =>
  new FinInputError({ code: 'validation_error', ...(message && { message }), details: [{ field, issue }] });

/** The PEMs given are PEMs; a certificate comes with its key (`identity`: a client must present both). */
function checkTls(tls: Partial<ClientTlsOptions>, identity: boolean): void {
  if ((identity || tls.cert !== undefined || tls.key !== undefined) && !isPem(tls.cert))
    throw refuse('tls.cert', 'the client certificate, PEM text or bytes');
  if ((identity || tls.cert !== undefined) && !isPem(tls.key))
    throw refuse('tls.key', 'the private key of the certificate, PEM text or bytes');
  const cas = tls.ca === undefined ? [] : Array.isArray(tls.ca) ? tls.ca : [tls.ca];
  if (!cas.every(isPem)) throw refuse('tls.ca', 'CA certificates, PEM text or bytes');
  if (tls.passphrase !== undefined && typeof tls.passphrase !== 'string')
    throw refuse('tls.passphrase', 'a string');
}

/**
 * Refuses, when a client is made, a `mutualTls` that is not `'optional'` or `'required'`, a `tls` without its
 * certificate and key, and a `'required'` client without `tls`.
 */
export function checkMutualTls(options: { mutualTls?: MutualTls; tls?: ClientTlsOptions }): void {
  if (!isMutualTls(options.mutualTls)) throw refuse('mutualTls', "must be 'optional' or 'required'");
  if (options.tls !== undefined) checkTls(options.tls, true);
  else if (options.mutualTls === 'required')
    throw refuse(
      'tls',
      "required when mutualTls is 'required' (the client certificate and key)",
      "mutualTls is 'required' but no tls option is given: pass tls: { cert, key, ca? } (docs/mtls.md)",
    );
}

/**
 * A fetch that sends every request through one undici 7 `Agent` presenting `tls` (TLS 1.2 at least) and
 * trusting its `ca`: the global fetch takes it as its `dispatcher`. The Agent pools its connections until
 * `close()`; `base` (else the global fetch when each request leaves) sends. Outside Node the published build
 * refuses here (decision EDGE-1).
 */
export function tlsFetch(tls: TlsFetchOptions, base?: Fetch): TlsFetch {
  checkTls(tls, false);
  const cas = tls.ca === undefined ? undefined : (Array.isArray(tls.ca) ? tls.ca : [tls.ca]).map(pemText);
  const connect: TlsConnect = {
    ...(tls.cert !== undefined &&
      tls.key !== undefined && { cert: pemText(tls.cert), key: pemText(tls.key) }),
    ...(cas && { ca: cas }),
    ...(tls.passphrase !== undefined && { passphrase: tls.passphrase }),
    minVersion: MIN_TLS_VERSION,
  };
  const dispatcher = tlsDispatcher(connect);
  const send: Fetch = async (input, init) =>
    (base ?? globalThis.fetch)(input, { ...init, dispatcher: await dispatcher.get() } as RequestInit);
  return Object.assign(send, { close: dispatcher.close });
}
