// What every resource of a PosClient shares: the transport, the per-call options and the redacting logger.
import { type LogEntry, type Logger, type LogLevel, redact } from '@fin/core';
import type { CallOptions, HttpClient } from '@fin/core/transport';

/** Options every call accepts: `signal`, `correlationId`, and `timeoutMs` / `maxRetries` / `headers` for this call only. */
export type { CallOptions };

/** The per-call options of `options` (which may hold others, such as a list's `pageSize`), for the transport. */
export const callOptions = ({
  signal,
  correlationId,
  timeoutMs,
  maxRetries,
  headers,
}: CallOptions): CallOptions => ({ signal, correlationId, timeoutMs, maxRetries, headers });

export interface ClientContext {
  http: HttpClient;
  /** Logs one entry through `redact`; silent without a logger. */
  log(level: LogLevel, entry: LogEntry): void;
}

export function createClientContext(http: HttpClient, logger: Logger | undefined): ClientContext {
  return {
    http,
    log(level, entry) {
      const write = logger?.[level];
      if (write) write.call(logger, redact(entry) as LogEntry);
    },
  };
}
