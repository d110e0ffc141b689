// A soak run: authorize load for a while, then what the database holds against what the clients were told.
import { runLoad } from './load.js';
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

export async function soak(options: SoakOptions): Promise<SoakReport> {
  const storedBefore = await options.countAuthorizations();
  const heapBefore = await options.heapUsed();
  let authorized = 0;
  const result = await runLoad({
    url: options.url,
    path: '/v1/sales/authorize',
    connections: options.connections,
    durationSeconds: options.seconds,
    makeRequest: authorizeRequests(options.token, 50, options.storeId),
    onResponse: (status, body) => {
      if (status === 200 && body.includes('"authorized":true')) authorized += 1;
    },
  });
  const heapAfter = await options.heapUsed();
  return {
    requests: result.total,
    requestsPerSecond: result.requestsPerSecond,
    authorized,
    failures: result.non2xx + result.errors + (result.total - result.non2xx - authorized),
    storedAuthorizations: (await options.countAuthorizations()) - storedBefore,
    heapBefore,
    heapAfter,
  };
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
