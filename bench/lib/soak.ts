// A soak run: authorize load for a while, then what the database holds against what the clients were told.
import { authorizeRequests } from './requests.js';

export interface SoakOptions {
  url: string;
  token: string;
  /** A store the token's client owns; default the bench's. */
  storeId?: string;
  seconds: number;
  connections: number;
  /** Heap in use after a full collection, in bytes, of the process that serves. */
  heapUsed(): Promise<number>;
  /** Authorizations the database holds. */
  countAuthorizations(): Promise<number>;
}

export interface SoakReport {
  requests: number;
  requestsPerSecond: number;
  /** Answers 200 with `authorized: true`. */
  authorized: number;
  /** Any other answer, or a connection error. */
  failures: number;
  storedAuthorizations: number;
  heapBefore: number;
  heapAfter: number;
}

/**
 * `connections` workers each send one request after another until the time is up, then finish the one in
 * flight: unlike a load generator stopped mid-request, every write the server made has its answer counted.
 */
export async function soak(options: SoakOptions): Promise<SoakReport> {
  const storedBefore = await options.countAuthorizations();
  const heapBefore = await options.heapUsed();
  const next = authorizeRequests(options.token, 50, options.storeId);
  const endsAt = performance.now() + options.seconds * 1000;
  let requests = 0;
  let authorized = 0;
  let failures = 0;
  const worker = async () => {
    while (performance.now() < endsAt) {
      const { headers, body } = next();
      requests += 1;
      try {
        const response = await fetch(`${options.url}/v1/sales/authorize`, { method: 'POST', headers, body });
        const text = await response.text();
        if (response.status === 200 && text.includes('"authorized":true')) authorized += 1;
        else failures += 1;
      } catch {
        failures += 1;
      }
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: options.connections }, worker));
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  const heapAfter = await options.heapUsed();
  return {
    requests,
    requestsPerSecond: requests / elapsedSeconds,
    authorized,
    failures,
    storedAuthorizations: (await options.countAuthorizations()) - storedBefore,
    heapBefore,
    heapAfter,
  };
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
