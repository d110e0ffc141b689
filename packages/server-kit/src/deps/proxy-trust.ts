// The TLS-terminating proxy whose client-certificate header the service believes: as configured, and as the service keeps it.

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
