// Spec section 5 "TLS 1.2 or higher": a partner served over plain HTTP, or agreeing a TLS 1.0/1.1 handshake, is a finding.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:tls';
import type { Check } from '../check.js';
import { displayUrl } from '../mask.js';

/** How long a probe below waits for the partner: a port that drops packets is no acceptance. */
const PROBE_TIMEOUT_MS = 3_000;

/** The protocol a TLS 1.0/1.1-only handshake agreed, or `undefined` when the partner refused it. */
function oldHandshake(url: URL, tls: { cert?: string; key?: string; passphrase?: string }) {
  return new Promise<string | undefined>((resolve) => {
    const socket = connect({
      host: url.hostname,
      port: Number(url.port || 443),
      servername: /^[\d.:[\]]+$/.test(url.hostname) ? undefined : url.hostname,
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.1',
      // OpenSSL 3 would refuse TLS 1.1 itself at its default level: lowered to see what the partner does.
      ciphers: 'DEFAULT@SECLEVEL=0',
      // Only the protocol is in question here; the certificate chain is the other checks' business.
      rejectUnauthorized: false,
      ...tls,
    });
    const done = (protocol: string | undefined) => {
      socket.destroy();
      resolve(protocol);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(undefined));
    socket.once('secureConnect', () => done(socket.getProtocol() ?? undefined));
    socket.once('error', () => done(undefined));
  });
}

/** The HTTP status the token endpoint answered over plain HTTP on the partner's host, or `undefined`. */
function plainAnswer(url: URL) {
  const plain = new URL('/v1/oauth/token', url);
  plain.protocol = 'http:';
  return new Promise<number | undefined>((resolve) => {
    const req = httpRequest(plain, { method: 'POST', timeout: PROBE_TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(undefined));
    req.end();
  });
}

/**
 * RFC 6761/2606 names no real partner can have: msw-intercepted test partners (`http://partner-pos.test`)
 * are no plain-HTTP partners. A loopback address is a real server and is reported.
 */
const reservedTestName = (hostname: string) => /(^|\.)(test|localhost|invalid|example)$/i.test(hostname);

export const transportSecurity: Check = {
  id: 'transport-security',
  title: 'Transport: TLS 1.2 or higher only, no plain HTTP (spec section 5)',
  async run({ options, finding }) {
    const url = new URL(options.baseUrl);
    const where = displayUrl(options.baseUrl);
    if (url.protocol === 'http:') {
      if (reservedTestName(url.hostname)) return;
      finding(
        where,
        'the partner is served over plain HTTP: client secrets, seller passwords and tokens travel in clear',
        'serve the Partner POS API over HTTPS only (TLS 1.2 or higher; mutual TLS recommended, mandatory in v2.0)',
      );
      return;
    }
    const old = await oldHandshake(url, options.tls ?? {});
    if (old) {
      finding(
        where,
        `the partner agreed a ${old} handshake; the spec requires TLS 1.2 or higher`,
        'set the minimum protocol of the TLS endpoint to TLS 1.2 (Node: minVersion "TLSv1.2"; nginx: ssl_protocols TLSv1.2 TLSv1.3)',
      );
    }
    const status = await plainAnswer(url);
    // A redirect to HTTPS is the usual port-80 setup (and no client of ours follows it): only an answer is one.
    if (status !== undefined && (status < 300 || status >= 400)) {
      finding(
        `http://${url.host}`,
        `the token endpoint also answers plain HTTP (HTTP ${status}): a client misconfigured with http:// sends its secret in clear`,
        'answer nothing but a redirect (or nothing at all) on plain HTTP',
      );
    }
  },
};
