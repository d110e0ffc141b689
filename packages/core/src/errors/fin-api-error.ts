// FinApiError: the one error type for every API error, on the client and the server alike.
import { catalogEntry, type ErrorCode } from './catalog.js';

export interface ErrorDetail {
  field: string;
  issue: string;
}

export interface FinApiErrorInit {
  /** Stable snake_case code; a code this version does not know is kept as is. */
  code: string;
  message?: string;
  status?: number;
  legacyCode?: string;
  details?: ErrorDetail[];
  docsUrl?: string;
  requestId?: string;
  correlationId?: string;
  retryAfterMs?: number;
  /** Response headers worth keeping (never Authorization). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * An error answered by the API (or raised locally with the API's semantics, like `unsupported_currency`).
 * Status, legacy code and message default to the catalog row of the code.
 */
export class FinApiError<C extends string = string> extends Error {
  override readonly name = 'FinApiError';
  readonly code: C;
  readonly legacyCode: string | undefined;
  readonly status: number;
  readonly details: ErrorDetail[];
  readonly docsUrl: string | undefined;
  readonly requestId: string | undefined;
  readonly correlationId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly headers: Record<string, string>;

  constructor(init: FinApiErrorInit & { code: C }) {
    const known = catalogEntry(init.code);
    super(
      init.message || known?.message || init.code,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.code = init.code;
    this.legacyCode = init.legacyCode ?? known?.legacyCode;
    this.status = init.status ?? known?.status ?? 500;
    this.details = init.details ?? [];
    this.docsUrl = init.docsUrl;
    this.requestId = init.requestId;
    this.correlationId = init.correlationId;
    this.retryAfterMs = init.retryAfterMs;
    this.headers = init.headers ?? {};
  }

  /** Plain data for logs and JSON: no cause, no stack, nothing secret. */
  toJSON() {
    return {
      name: this.name,
      code: this.code,
      legacyCode: this.legacyCode,
      status: this.status,
      message: this.message,
      details: this.details,
      docsUrl: this.docsUrl,
      requestId: this.requestId,
      correlationId: this.correlationId,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

/**
 * Narrows an unknown error to a FinApiError, optionally of one code. Known codes autocomplete;
 * any other string is accepted too, so code written today still matches codes a newer server adds.
 */
export function isFinApiError<C extends ErrorCode | (string & {})>(
  error: unknown,
  code?: C,
): error is FinApiError<C> {
  return error instanceof FinApiError && (code === undefined || error.code === code);
}
