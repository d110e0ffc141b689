// What every resource of a PosClient shares: the transport, the per-call options and the redacting logger.
import { type LogEntry, type Logger, type LogLevel, redact } from '@fin/core';
import type { HttpClient } from '@fin/core/transport';

/** Options every call accepts. */
export interface CallOptions {
  /** Aborts the call, including pacing and backoff waits. */
  signal?: AbortSignal;
  /** X-Correlation-Id to send (one journey, one id); a new one per call when absent. */
  correlationId?: string;
}

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
