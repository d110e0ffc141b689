// The transport's log: entries passed through `redact` before the caller's logger sees them.

import type { LogEntry, Logger, LogLevel } from '../logger/index.js';
import { redact } from '../redact/index.js';

export type TransportLog = (level: LogLevel, entry: LogEntry) => void;

/** Writes to `logger` at `level` when it has that method; a silent client (the default) does nothing. */
export function createTransportLog(logger: Logger | undefined): TransportLog {
  return (level, entry) => {
    const write = logger?.[level];
    if (write) write.call(logger, redact(entry) as LogEntry);
  };
}
