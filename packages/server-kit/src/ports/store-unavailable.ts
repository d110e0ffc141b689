// The one failure a Store may throw on purpose: its database cannot be reached or answered in time (the service says 503).

/**
 * Thrown by a store whose database is unavailable: refused or dropped connections, a server shutting
 * down or restarting, too many connections, no pooled connection in time, a statement or lock timeout.
 * Nothing was committed by the step that threw (an atomic step commits whole or not at all), so the
 * service answers 503 `service_unavailable` with `Retry-After` and the client retries with the same key.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  /** A short, secret-free reason for operators: a SQLSTATE (`57P01`), a socket error (`ECONNREFUSED`) ... */
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(`store unavailable: ${reason}`, options);
    this.reason = reason;
  }
}

export const isStoreUnavailable = (error: unknown): error is StoreUnavailableError =>
  error instanceof StoreUnavailableError;
