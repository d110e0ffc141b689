// FinApiError: an error the API answered, on the client and the server alike.
import { catalogEntry, type ErrorCode } from './catalog.js';
import { errorDocsUrl } from './docs-url.js';
import { FinError, isFinError } from './fin-error.js';

export interface ErrorDetail {
  field: string;
  issue: string;
}

/** A code of the catalog; any other string is accepted too, so a code a newer server adds is kept as is. */
export type ApiErrorCode = ErrorCode | (string & {});

export interface FinApiErrorInit {
  /** Stable snake_case code; a code this version does not know is kept as is. */
  code: ApiErrorCode;
  message?: string;
  status?: number;
  legacyCode?: string;
  details?: ErrorDetail[];
  docsUrl?: string;
  endpoint?: string;
  requestId?: string;
  serverRequestId?: string;
  correlationId?: string;
  retryAfterMs?: number;
  /** Response headers worth keeping (never Authorization). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * An error answered by the API (the server builds its answers from it too). Status, legacy code and
 * message default to the catalog row of the code. Input refused before sending is a `FinInputError`.
 */
export class FinApiError<C extends ApiErrorCode = ApiErrorCode> extends FinError<C> {
  override readonly name = 'FinApiError';
  readonly legacyCode: string | undefined;
  readonly status: number;
  readonly details: ErrorDetail[];
  /** Where the code is documented: the answer's `error.docsUrl`, else its entry in docs/errors.md; undefined for an unknown code. */
  readonly docsUrl: string | undefined;
  /**
   * The server's own id for the request, when it answered with one other than `requestId` (the
   * `X-Request-Id` this client sent, which its logs carry): quote both in a support ticket. Undefined
   * when the server echoed ours.
   */
  readonly serverRequestId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly headers: Record<string, string>;

  constructor(init: FinApiErrorInit & { code: C }) {
    const known = catalogEntry(init.code);
    super(init.message || known?.message || init.code, init);
    this.legacyCode = init.legacyCode ?? known?.legacyCode;
    this.status = init.status ?? known?.status ?? 500;
    this.details = init.details ?? [];
    // The answer's own link, else the code's entry in docs/errors.md (a partner's answer may carry none).
    this.docsUrl = init.docsUrl ?? errorDocsUrl(init.code);
    this.serverRequestId = init.serverRequestId;
    this.retryAfterMs = init.retryAfterMs;
    this.headers = init.headers ?? {};
  }

  /** Plain data for logs and JSON: no cause, no stack, nothing secret. */
  override toJSON() {
    return {
      name: this.name,
      code: this.code,
      legacyCode: this.legacyCode,
      status: this.status,
      message: this.message,
      details: this.details,
      docsUrl: this.docsUrl,
      endpoint: this.endpoint,
      requestId: this.requestId,
      serverRequestId: this.serverRequestId,
      correlationId: this.correlationId,
      idempotencyKey: this.idempotencyKey,
      requestIds: this.requestIds.length > 0 ? this.requestIds : undefined,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

/**
 * Narrows an unknown error to a FinApiError, optionally of one code, across copies of the package.
 * Known codes autocomplete; any other string is accepted too, so code written today still matches
 * codes a newer server adds.
 */
export function isFinApiError<C extends ApiErrorCode>(error: unknown, code?: C): error is FinApiError<C> {
  return isFinError(error) && error instanceof FinApiError && (code === undefined || error.code === code);
}
