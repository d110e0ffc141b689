// The Logger port shared by every @fin package: optional leveled methods, each taking one structured entry.

/** One structured log entry. `event` names what happened (`http.request`, `http.response` ...). */
export interface LogEntry {
  event: string;
  [field: string]: unknown;
}

/**
 * What the SDKs log to. Every method is optional, so `console`, pino and a plain object of functions all
 * fit. Entries are already passed through `redact`: no CPF, IMEI, password, secret or token in clear.
 */
export interface Logger {
  debug?(entry: LogEntry): void;
  info?(entry: LogEntry): void;
  warn?(entry: LogEntry): void;
  error?(entry: LogEntry): void;
}

export type LogLevel = keyof Logger;
