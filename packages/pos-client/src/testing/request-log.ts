// Every request the simulated partner answered: what tests count (per endpoint, per status) and inspect.
import type { PosEndpoint } from './endpoints.js';

export interface RequestRecord {
  endpoint: PosEndpoint | 'unknown';
  status: number;
  /** The client_id the request was made with, when the simulation could tell. */
  clientId: string | undefined;
  /** When it arrived, on the simulation's clock. */
  at: string;
}

export interface RequestLog {
  /** Every record so far, oldest first. */
  all(): readonly RequestRecord[];
  /** How many requests match: `count()`, `count({ endpoint: 'GET /v1/products' })`, `count({ status: 429 })`. */
  count(filter?: { endpoint?: PosEndpoint; status?: number }): number;
  clear(): void;
}

export function createRequestLog() {
  const records: RequestRecord[] = [];
  const log: RequestLog = {
    all: () => records,
    count: (filter = {}) =>
      records.filter(
        (record) =>
          (filter.endpoint === undefined || record.endpoint === filter.endpoint) &&
          (filter.status === undefined || record.status === filter.status),
      ).length,
    clear: () => {
      records.length = 0;
    },
  };
  return { log, record: (entry: RequestRecord) => records.push(entry) };
}
