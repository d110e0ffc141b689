// Which client certificate a request came with: the TLS peer's, or a trusted proxy's header, never a header anyone could write.
import type { PlainRequest } from '../http/plain.js';
import { thumbprintOfHeader } from './certificate-thumbprint.js';

/** A TLS-terminating proxy the service is told to believe (`trustedProxy` of `createFinancingService`). */
export interface TrustedProxy {
  /** The header the proxy writes the client certificate into, e.g. `x-client-cert` (any case). */
  certificateHeader: string;
  /**
   * The proxy's peer addresses: the header is read only from these. Without it, from every peer: only
   * for a service no one can reach except through the proxy.
   */
  addresses?: readonly string[];
}

/** The checked, lower-cased form the service keeps. */
export interface ProxyTrust {
  header: string;
  addresses: ReadonlySet<string> | undefined;
}

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
