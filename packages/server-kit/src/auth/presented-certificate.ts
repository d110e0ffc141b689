// Which client certificate a request came with: the TLS peer's, or a trusted proxy's header, never a header anyone could write.
import type { ProxyTrust, TrustedProxy } from '../deps/proxy-trust.js';
import { thumbprintOfHeader } from '../http/certificate-thumbprint.js';
import type { PlainRequest } from '../http/plain.js';

export function proxyTrust(proxy: TrustedProxy | undefined): ProxyTrust | undefined {
  if (proxy === undefined) return undefined;
  const header = proxy.certificateHeader?.trim().toLowerCase();
  if (!header || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(header)) {
    throw new TypeError('createFinancingService: trustedProxy.certificateHeader must be a header name');
  }
  if (proxy.addresses !== undefined && proxy.addresses.length === 0) {
    throw new TypeError(
      'createFinancingService: trustedProxy.addresses must list at least one address (omit it to trust every peer)',
    );
  }
  return { header, addresses: proxy.addresses && new Set(proxy.addresses) };
}

/**
 * The `x5t#S256` of the client certificate behind `request`: from a trusted proxy's header when the request
 * came through that proxy (the socket's certificate is then the proxy's own), else the TLS peer's.
 */
export function presentedCertificate(
  request: PlainRequest,
  trust: ProxyTrust | undefined,
): string | undefined {
  const throughProxy =
    trust !== undefined &&
    (trust.addresses === undefined || (request.source !== undefined && trust.addresses.has(request.source)));
  if (!throughProxy) return request.certificateSha256;
  const header = request.header(trust.header);
  return header === undefined ? undefined : thumbprintOfHeader(header);
}
