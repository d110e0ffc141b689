// FinError: the one base of every @fin error, recognised across copies of the package (ESM beside CJS).

/** What every @fin error carries: a stable code and the identifiers of the request it concerns. */
export interface FinErrorInit<C extends string = string> {
  code: C;
  /** `METHOD /path` of the call, when there was one (never the query: it may hold an IMEI). */
  endpoint?: string;
  requestId?: string;
  correlationId?: string;
  /** The Idempotency-Key of the write it concerns. */
  idempotencyKey?: string;
  /** X-Request-Id of every attempt of the call, first to last. */
  requestIds?: readonly string[];
  cause?: unknown;
}

// Symbol.for: the same key in every copy of @fin/core loaded in one process.
const BRAND = Symbol.for('@fin/core.error');
const KINDS = Symbol.for('@fin/core.error.kinds');

type Branded = Error & { [KINDS]: readonly string[] };

/** Whether `value` is an error of the @fin SDKs, from this copy of the package or another one. */
export function isFinError(value: unknown): value is FinError {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}

/**
 * Base of every error the SDKs raise: `FinApiError` (the API answered an error), `FinInputError`
 * (refused locally before sending) and the transport's own (connection, timeout, abort, unreadable
 * response). `instanceof` works across copies of the package too: the error carries its class names.
 */
export abstract class FinError<C extends string = string> extends Error {
  abstract override readonly name: string;
  readonly code: C;
  readonly endpoint: string | undefined;
  readonly requestId: string | undefined;
  readonly correlationId: string | undefined;
  /** The Idempotency-Key of a write: call again with it after a crash or a timeout to get the original answer. */
  readonly idempotencyKey: string | undefined;
  /** X-Request-Id of every attempt the call made, first to last (quote them to support). */
  readonly requestIds: readonly string[];
  /**
   * The HTTP `Response` of the attempt that ended the call, when one answered (status, headers; its body
   * already read). Not enumerable: JSON, logs and equality never see it. Undefined for a failure without an
   * answer (connection, timeout, abort) and for input refused before sending.
   */
  declare readonly response: Response | undefined;

  /**
   * Typed as well as defined (below): `err instanceof FinApiError` narrows to `FinApiError<ApiErrorCode>`, so
   * `code` is the catalog's union (open to newer codes), never `any` as a generic class would give.
   */
  declare static [Symbol.hasInstance]: <T>(
    this: abstract new (
      ...args: never[]
    ) => T,
    value: unknown,
  ) => value is T;

  constructor(message: string, init: FinErrorInit<C>) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.endpoint = init.endpoint;
    this.requestId = init.requestId;
    this.correlationId = init.correlationId;
    this.idempotencyKey = init.idempotencyKey;
    this.requestIds = init.requestIds ?? (init.requestId ? [init.requestId] : []);
    const kinds: string[] = [];
    for (let kind = new.target; kind !== FinError; kind = Object.getPrototypeOf(kind)) kinds.push(kind.name);
    // Not enumerable, so neither JSON nor test equality sees them.
    Object.defineProperty(this, BRAND, { value: true });
    Object.defineProperty(this, KINDS, { value: Object.freeze(kinds) });
  }

  /** Plain data for logs: no cause, no stack, nothing secret. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      endpoint: this.endpoint,
      requestId: this.requestId,
      correlationId: this.correlationId,
      idempotencyKey: this.idempotencyKey,
      requestIds: this.requestIds.length > 0 ? this.requestIds : undefined,
    };
  }
}

/** Records on an error the Idempotency-Key and request ids of the whole call it ended (the transport's last step). */
export function recordCall(
  error: FinError,
  call: { idempotencyKey: string | undefined; requestIds: readonly string[] },
): void {
  const writable = error as { idempotencyKey: string | undefined; requestIds: readonly string[] };
  writable.idempotencyKey = call.idempotencyKey;
  if (call.requestIds.length > 0) writable.requestIds = [...call.requestIds];
}

/** Records on an error the `Response` that carried it (not enumerable: never in JSON, logs or equality). */
export function recordResponse<E extends FinError>(error: E, response: Response): E {
  return Object.defineProperty(error, 'response', { value: response, enumerable: false, configurable: true });
}

/**
 * `instanceof` for FinError and its subclasses: the prototype chain (same copy), else the class names a
 * @fin error of another copy carries. Inherited by every subclass, where `this` is that subclass.
 */
function isInstance(this: abstract new (...args: never[]) => unknown, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
  if (!isFinError(value)) return false;
  return this === FinError || (value as unknown as Branded)[KINDS].includes(this.name);
}
Object.defineProperty(FinError, Symbol.hasInstance, { value: isInstance });
