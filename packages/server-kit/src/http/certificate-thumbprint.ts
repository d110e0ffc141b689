// Certificate thumbprints as RFC 8705 writes them (x5t#S256: base64url SHA-256 of the DER), from a peer, a proxy header or an operator.
import { hash } from 'node:crypto';

/** The `x5t#S256` of a DER certificate. */
export const thumbprintOfDer = (der: Uint8Array): string => hash('sha256', der, 'base64url');

/**
 * An operator's `certificate.sha256` as the base64url `x5t#S256`: accepts that form (43 characters) or the
 * hex openssl prints (`openssl x509 -fingerprint -sha256`: 64 hex digits, colons optional, any case).
 * `undefined` when it is neither.
 */
export function normalizeThumbprint(value: string): string | undefined {
  const text = value.trim();
  if (/^[A-Za-z0-9_-]{43}$/.test(text)) return text;
  const hex = text.replaceAll(':', '');
  return /^[0-9a-fA-F]{64}$/.test(hex) ? Buffer.from(hex, 'hex').toString('base64url') : undefined;
}

/** Largest certificate header read: a leaf certificate is a few KiB, a chain is not expected here. */
const MAX_HEADER_CHARS = 16 * 1024;

/**
 * The thumbprint of the certificate a TLS-terminating proxy forwarded in a header: URL-encoded PEM
 * (nginx `$ssl_client_escaped_cert`, AWS ALB), PEM, or the bare base64 of the DER (Traefik, Caddy).
 * `undefined` when the header holds none of these.
 */
export function thumbprintOfHeader(value: string): string | undefined {
  if (value.length === 0 || value.length > MAX_HEADER_CHARS) return undefined;
  let text = value;
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return undefined;
    }
  }
  const body = text
    .replace(/-----BEGIN CERTIFICATE-----/, '')
    .replace(/-----END CERTIFICATE-----[\s\S]*$/, '')
    .replace(/\s+/g, '');
  if (body.length < 64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return undefined;
  const der = Buffer.from(body, 'base64');
  // A DER certificate is an ASN.1 SEQUENCE: anything else is not one.
  return der[0] === 0x30 ? thumbprintOfDer(der) : undefined;
}

/** What Node's TLS socket offers (`tls.TLSSocket`); a plain socket has no such method. */
interface MaybeTlsSocket {
  getPeerCertificate?: () => { raw?: Uint8Array } | null | undefined;
}

/** Per connection: the certificate is fixed by its handshake (the service never renegotiates). */
const bySocket = new WeakMap<object, string | null>();

/**
 * The thumbprint of the client certificate the peer proved it holds during the TLS handshake of this
 * socket, or `undefined` (plain HTTP, or no certificate sent). Worked out once per connection:
 * `getPeerCertificate()` builds a whole object, too much for every request of a kept-alive connection.
 */
export function peerThumbprint(socket: unknown): string | undefined {
  const tls = socket as MaybeTlsSocket | undefined;
  if (typeof tls?.getPeerCertificate !== 'function') return undefined;
  const known = bySocket.get(tls);
  if (known !== undefined) return known ?? undefined;
  const raw = tls.getPeerCertificate()?.raw;
  const thumbprint = raw && raw.byteLength > 0 ? thumbprintOfDer(raw) : undefined;
  bySocket.set(tls, thumbprint ?? null);
  return thumbprint;
}
