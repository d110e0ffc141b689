// Errors the transport raises when there is no API answer to report: connection, timeout, abort, unreadable response.
import { FinError } from './fin-error.js';

/** Codes of the transport's own errors (never sent by the API). */
export type TransportErrorCode =
  | 'connection_failed'
  | 'timeout'
  | 'aborted'
  | 'response_not_json'
  | 'response_invalid'
  | 'redirect_refused'
  | 'response_too_large';

/** Where a transport error happened: method and path, never the query (it may hold an IMEI) nor a body. */
export interface TransportErrorInit {
  endpoint: string;
  requestId?: string;
  correlationId?: string;
  cause?: unknown;
}

/** The request never got an HTTP answer: DNS, refused or reset connection, TLS failure. Retried. */
export class FinConnectionError extends FinError<'connection_failed'> {
  override readonly name = 'FinConnectionError';

  constructor(init: TransportErrorInit) {
    super(`Could not reach ${init.endpoint}`, { ...init, code: 'connection_failed' });
  }
}

/** One attempt outlived `timeoutMs` (`scope: 'attempt'`, retried) or the call its `deadlineMs` (`'deadline'`, final). */
export class FinTimeoutError extends FinError<'timeout'> {
  override readonly name = 'FinTimeoutError';
  readonly scope: 'attempt' | 'deadline';
  readonly timeoutMs: number;

  constructor(init: TransportErrorInit & { scope: 'attempt' | 'deadline'; timeoutMs: number }) {
    super(`${init.endpoint} timed out after ${init.timeoutMs} ms (${init.scope})`, {
      ...init,
      code: 'timeout',
    });
    this.scope = init.scope;
    this.timeoutMs = init.timeoutMs;
  }

  override toJSON() {
    return { ...super.toJSON(), scope: this.scope, timeoutMs: this.timeoutMs };
  }
}

/** The caller's `signal` aborted the call, during a request or a wait. Never retried. */
export class FinAbortError extends FinError<'aborted'> {
  override readonly name = 'FinAbortError';

  constructor(init: TransportErrorInit) {
    super(`${init.endpoint} was aborted`, { ...init, code: 'aborted' });
  }
}

/** One problem of a response: the path of the field (`data.items.0.price`) and what is wrong with it. */
export interface ResponseIssue {
  path: string;
  message: string;
}

interface ResponseErrorInit extends TransportErrorInit {
  status: number;
}

/** The body is not JSON at all, or is truncated. `status` is the HTTP status that came with it. */
export class FinResponseParseError extends FinError<'response_not_json'> {
  override readonly name = 'FinResponseParseError';
  readonly status: number;

  constructor(init: ResponseErrorInit) {
    super(`${init.endpoint} answered ${init.status} with a body that is not valid JSON`, {
      ...init,
      code: 'response_not_json',
    });
    this.status = init.status;
  }

  override toJSON() {
    return { ...super.toJSON(), status: this.status };
  }
}

/** The body is JSON but breaks the contract; `issues` names each field. Unknown fields never cause it. */
export class FinResponseValidationError extends FinError<'response_invalid'> {
  override readonly name = 'FinResponseValidationError';
  readonly status: number;
  readonly issues: ResponseIssue[];

  constructor(init: ResponseErrorInit & { issues: ResponseIssue[] }) {
    const fields = init.issues.map((issue) => issue.path || '(body)').join(', ');
    super(`${init.endpoint} answered ${init.status} with a response that breaks the contract at: ${fields}`, {
      ...init,
      code: 'response_invalid',
    });
    this.status = init.status;
    this.issues = init.issues;
  }

  override toJSON() {
    return { ...super.toJSON(), status: this.status, issues: this.issues };
  }
}

/**
 * The peer answered a redirect (3xx). No client follows one (DESIGN 19): following would re-send the body
 * (a CPF, the client secret) to wherever `Location` points. `location` is the target's origin only, never its
 * path or query. Never retried.
 */
export class FinRedirectError extends FinError<'redirect_refused'> {
  override readonly name = 'FinRedirectError';
  readonly status: number;
  /** Origin of the `Location` header (`https://host:port`), `undefined` when absent or unreadable. */
  readonly location: string | undefined;

  constructor(init: ResponseErrorInit & { location: string | undefined }) {
    super(
      `${init.endpoint} answered ${init.status} redirecting to ${init.location ?? 'an unreadable location'}; redirects are never followed`,
      { ...init, code: 'redirect_refused' },
    );
    this.status = init.status;
    this.location = init.location;
  }

  override toJSON() {
    return { ...super.toJSON(), status: this.status, location: this.location };
  }
}

/** The body outgrew the client's `maxResponseBytes` (or a list its `maxPages`): the rest is not read. Never retried. */
export class FinResponseTooLargeError extends FinError<'response_too_large'> {
  override readonly name = 'FinResponseTooLargeError';
  /** The limit that was passed: bytes of one body, or pages of one list. */
  readonly limit: number;
  readonly unit: 'bytes' | 'pages';

  constructor(init: TransportErrorInit & { limit: number; unit: 'bytes' | 'pages' }) {
    super(`${init.endpoint} answered more than ${init.limit} ${init.unit}; the rest was not read`, {
      ...init,
      code: 'response_too_large',
    });
    this.limit = init.limit;
    this.unit = init.unit;
  }

  override toJSON() {
    return { ...super.toJSON(), limit: this.limit, unit: this.unit };
  }
}
