// Errors the transport raises itself, beside FinApiError: connection, timeout, abort and a response we cannot read.

/** Where a transport error happened: method and path, never the query (it may hold an IMEI) nor a body. */
export interface FinErrorInit {
  endpoint: string;
  requestId?: string;
  correlationId?: string;
  cause?: unknown;
}

/**
 * Base of every error the transport raises when there is no API answer to report. FinApiError (an answer
 * of the API) keeps its own shape; catch both with `error instanceof FinError || isFinApiError(error)`.
 */
export abstract class FinError extends Error {
  abstract override readonly name: string;
  /** `METHOD /path` of the call. */
  readonly endpoint: string;
  readonly requestId: string | undefined;
  readonly correlationId: string | undefined;

  constructor(message: string, init: FinErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.endpoint = init.endpoint;
    this.requestId = init.requestId;
    this.correlationId = init.correlationId;
  }

  /** Plain data for logs: no cause, no stack, nothing secret. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      endpoint: this.endpoint,
      requestId: this.requestId,
      correlationId: this.correlationId,
    };
  }
}

/** The request never got an HTTP answer: DNS, refused or reset connection, TLS failure. Retried. */
export class FinConnectionError extends FinError {
  override readonly name = 'FinConnectionError';

  constructor(init: FinErrorInit) {
    super(`Could not reach ${init.endpoint}`, init);
  }
}

/** One attempt outlived `timeoutMs` (`scope: 'attempt'`, retried) or the call its `deadlineMs` (`'deadline'`, final). */
export class FinTimeoutError extends FinError {
  override readonly name = 'FinTimeoutError';
  readonly scope: 'attempt' | 'deadline';
  readonly timeoutMs: number;

  constructor(init: FinErrorInit & { scope: 'attempt' | 'deadline'; timeoutMs: number }) {
    super(`${init.endpoint} timed out after ${init.timeoutMs} ms (${init.scope})`, init);
    this.scope = init.scope;
    this.timeoutMs = init.timeoutMs;
  }

  override toJSON() {
    return { ...super.toJSON(), scope: this.scope, timeoutMs: this.timeoutMs };
  }
}

/** The caller's `signal` aborted the call, during a request or a wait. Never retried. */
export class FinAbortError extends FinError {
  override readonly name = 'FinAbortError';

  constructor(init: FinErrorInit) {
    super(`${init.endpoint} was aborted`, init);
  }
}

/** One problem of a response: the path of the field (`data.items.0.price`) and what is wrong with it. */
export interface ResponseIssue {
  path: string;
  message: string;
}

interface FinResponseErrorInit extends FinErrorInit {
  status: number;
}

/** The body is not JSON at all, or is truncated. `status` is the HTTP status that came with it. */
export class FinResponseParseError extends FinError {
  override readonly name = 'FinResponseParseError';
  readonly status: number;

  constructor(init: FinResponseErrorInit) {
    super(`${init.endpoint} answered ${init.status} with a body that is not valid JSON`, init);
    this.status = init.status;
  }

  override toJSON() {
    return { ...super.toJSON(), status: this.status };
  }
}

/** The body is JSON but breaks the contract; `issues` names each field. Unknown fields never cause it. */
export class FinResponseValidationError extends FinError {
  override readonly name = 'FinResponseValidationError';
  readonly status: number;
  readonly issues: ResponseIssue[];

  constructor(init: FinResponseErrorInit & { issues: ResponseIssue[] }) {
    const fields = init.issues.map((issue) => issue.path || '(body)').join(', ');
    super(
      `${init.endpoint} answered ${init.status} with a response that breaks the contract at: ${fields}`,
      init,
    );
    this.status = init.status;
    this.issues = init.issues;
  }

  override toJSON() {
    return { ...super.toJSON(), status: this.status, issues: this.issues };
  }
}
