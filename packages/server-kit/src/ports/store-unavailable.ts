// The one failure a Store may throw on purpose: its database cannot be reached or answered in time (the service says 503).

// Symbol.for: the same key in every copy of @fin/server-kit loaded in one process (ESM beside CJS, decision SH-2).
const BRAND = Symbol.for('@fin/server-kit.store-unavailable');

/**
 * Whether `error` is a StoreUnavailableError, thrown by this copy of the package or by another one (the
 * CommonJS `@fin/server-kit/postgres` under an ESM service, a store bundled by the application ...).
 */
export const isStoreUnavailable = (error: unknown): error is StoreUnavailableError =>
  typeof error === 'object' && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true;

/**
 * Thrown by a store whose database is unavailable: refused or dropped connections, a server shutting
 * down or restarting, too many connections, no pooled connection in time, a statement or lock timeout.
 * Nothing was committed by the step that threw (an atomic step commits whole or not at all), so the
 * service answers 503 `service_unavailable` with `Retry-After` and the client retries with the same key.
 * `instanceof` recognises one thrown by another copy of the package too: it reads the error's brand.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  /** A short, secret-free reason for operators: a SQLSTATE (`57P01`), a socket error (`ECONNREFUSED`) ... */
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(`store unavailable: ${reason}`, options);
    this.reason = reason;
    // Not enumerable, so neither JSON nor test equality sees it.
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** Typed as well as defined (below): `err instanceof StoreUnavailableError` narrows as usual. */
  declare static [Symbol.hasInstance]: <T>(
    this: abstract new (
      ...args: never[]
    ) => T,
    value: unknown,
  ) => value is T;
}

/** `instanceof`: the brand for the class itself (any copy), the prototype chain for a subclass a store defines. */
function isInstance(this: abstract new (...args: never[]) => unknown, value: unknown): boolean {
  if (this === StoreUnavailableError) return isStoreUnavailable(value);
  return Function.prototype[Symbol.hasInstance].call(this, value);
}
Object.defineProperty(StoreUnavailableError, Symbol.hasInstance, { value: isInstance });
