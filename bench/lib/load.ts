// One autocannon run against a URL, each request made fresh by `makeRequest`; returns rate and latency.
import autocannon from 'autocannon';

export interface LoadRequest {
  headers: Record<string, string>;
  body: string;
}

export interface LoadOptions {
  url: string;
  path: string;
  connections: number;
  durationSeconds: number;
  makeRequest: () => LoadRequest;
  /** Sees every answer (status and body), e.g. to count `authorized: true`. */
  onResponse?: (status: number, body: string) => void;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { onResponse } = options;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: [
      {
        method: 'POST',
        path: options.path,
        setupRequest: (request) => ({ ...request, ...options.makeRequest() }),
        ...(onResponse ? { onResponse: (status: number, body: string) => onResponse(status, body) } : {}),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
