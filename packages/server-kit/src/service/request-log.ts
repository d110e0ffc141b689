// The log line of a request (`event: 'http.request'`): what it carries, at which level, masked by `redact`.
import { type Logger, redact } from '@fin/core';
import { CLIENT_ABORTED } from '../http/client-aborted.js';
import { outcomeOf } from '../http/outcome.js';
import type { PlainResponse } from '../http/plain.js';

/** What the log line of a request carries besides status and timing. */
export interface Trace {
  route: string;
  requestId?: string;
  correlationId?: string;
  clientId?: string;
  authorizationId?: string;
  /** Masked by `redact` before logging, like every CPF and IMEI. */
  clientTaxId?: string;
  imei?: string;
  replayed?: boolean;
  /** The client went away before its body ended: logged as `http.client_aborted`, not as a request. */
  clientAborted?: boolean;
}

export function logRequest(logger: Logger, trace: Trace, response: PlainResponse, durationMs: number): void {
  const outcome = outcomeOf(response);
  // An outage is logged once by the outage monitor; its 503s are warnings here, not one error each.
  const level =
    response.status >= 500 && response.status !== 503 ? 'error' : response.status >= 400 ? 'warn' : 'info';
  logger[level]?.(
    redact({ event: 'http.request', ...trace, status: response.status, outcome, durationMs }) as {
      event: string;
    },
  );
}

/** The one line of a client that reset or closed mid-body (issue 37): info, anyone can cause it, nothing failed. */
export function logClientAborted(logger: Logger, trace: Trace, durationMs: number): void {
  const { clientAborted: _aborted, ...seen } = trace;
  logger.info?.(
    redact({ event: 'http.client_aborted', ...seen, outcome: CLIENT_ABORTED, durationMs }) as {
      event: string;
    },
  );
}
