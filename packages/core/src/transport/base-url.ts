// A client's `baseUrl`: https, or plain http only to loopback, a reserved test name, or when the caller opts in.
import { FinInputError } from '../errors/index.js';
import type { TransportLog } from './transport-log.js';

/** RFC 6761 / RFC 2606 names that never reach the internet: where tests and msw run. */
const RESERVED_SUFFIXES = ['.test', '.localhost', '.invalid', '.example'];
const RESERVED_HOSTS = new Set(['localhost', 'example.com', 'example.net', 'example.org']);

const refuse = (issue: string) =>
  new FinInputError({ code: 'validation_error', details: [{ field: 'baseUrl', issue }] });

/** Loopback (127.0.0.0/8, ::1, `localhost`) or a reserved test name: plain HTTP never leaves the machine or a test. */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (RESERVED_HOSTS.has(host) || RESERVED_SUFFIXES.some((suffix) => host.endsWith(suffix))) return true;
  if (host === '[::1]') return true;
  return /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Spec section 5: TLS 1.2 or higher. A `baseUrl` that is not http(s) is refused; plain `http://` is refused
 * too (FinInputError on `baseUrl`) unless its host is local (loopback, `.test`, `.localhost`, `.invalid`,
 * `.example`) or `allowInsecureHttp` is set, which logs one `http.insecure_base_url` warning for the client.
 */
export function checkBaseUrl(
  baseUrl: string,
  allowInsecureHttp: boolean | undefined,
  log: TransportLog,
): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw refuse('an absolute URL, https://host');
  }
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:') throw refuse('https:// (or http:// to a local test host)');
  if (isLocalHost(url.hostname)) return;
  if (!allowInsecureHttp)
    throw refuse(
      'plain http:// reaches only loopback or a reserved test name; use https:// (TLS 1.2+), or set allowInsecureHttp: true',
    );
  log('warn', {
    event: 'http.insecure_base_url',
    origin: url.origin,
    message: 'TLS is off: every call crosses the network in clear text',
  });
}
