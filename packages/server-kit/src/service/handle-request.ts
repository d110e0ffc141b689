// The pure core: one PlainRequest in, one PlainResponse out; ids and routing, then the endpoint's pipeline.
import { endpoints, redact } from '@fin/core';
import { issueToken } from '../auth/token-endpoint.js';
import type { ServiceDeps } from '../deps/service-deps.js';
import { watchBody } from '../http/body.js';
import { CLIENT_ABORTED_STATUS, isClientAborted } from '../http/client-aborted.js';
import {
  type AnswerContext,
  failure,
  NO_STORE_HEADERS,
  tokenFailure,
  UNAVAILABLE_HEADERS,
} from '../http/envelope.js';
import type { PlainRequest, PlainResponse } from '../http/plain.js';
import { readRequestIds } from '../http/request-ids.js';
import type { RouteMatch } from '../http/routes.js';
import { isStoreUnavailable } from '../ports/store-unavailable.js';
import { withDeadline } from './deadline.js';
import type { OutageMonitor } from './outage.js';
import { createPipelines } from './pipeline/pipeline.js';
import { logClientAborted, logRequest, type Trace } from './request-log.js';
import { useCaseOf } from './use-case-table.js';

/** `outage` is shared with readiness, which turns not ready while the store refuses requests. */
export function createRequestHandler(deps: ServiceDeps, outage: OutageMonitor) {
  const pipeline = createPipelines(deps);
  const { limits } = deps.settings;

  /** Request ids, shutdown, routing; the token endpoint, or the pipeline of the endpoint addressed. */
  async function dispatch(request: PlainRequest, match: RouteMatch, trace: Trace): Promise<PlainResponse> {
    const token = match.ok && match.operationId === 'issueToken';
    // Set first: a 503 while stopping is then the token endpoint's own (an RFC 6749 body).
    if (token) trace.route = 'token';
    const ids = readRequestIds(request, !token);
    trace.requestId = ids.requestId;
    if (ids.ok) trace.correlationId = ids.correlationId;
    const answer: AnswerContext = { requestId: ids.requestId, now: deps.clock.now() };
    // Shutting down (`close()`): no new work; the client retries on another instance after Retry-After.
    if (deps.stopping.aborted) return serverFailure(trace, 'service_unavailable', UNAVAILABLE_HEADERS);
    if (!match.ok) {
      const headers = match.code === 'method_not_allowed' ? { allow: match.allow } : undefined;
      return failure(answer, match.code, { headers });
    }
    if (match.operationId === 'issueToken') {
      if (ids.ok) return issueToken(deps, request, answer);
      const description = ids.details.map((d) => `${d.field} ${d.issue}`).join('; ');
      return tokenFailure(answer, 'invalid_request_id', { description });
    }
    const { operationId, params } = match;
    trace.route = useCaseOf(operationId).route;
    trace.authorizationId = params.id;
    if (!ids.ok) return failure(answer, 'invalid_request_id', { details: ids.details });
    const endpoint = endpoints.salesAuthorization[operationId];
    return pipeline({ request, operationId, endpoint, params, answer, trace });
  }

  /** A 5xx in the body format of the route: RFC 6749's at the token endpoint, the envelope elsewhere. */
  function serverFailure(trace: Trace, code: 'internal_error' | 'service_unavailable', headers = {}) {
    const answer = { requestId: trace.requestId, now: deps.clock.now() };
    return trace.route === 'token'
      ? tokenFailure(answer, code, { headers })
      : failure(answer, code, { headers });
  }

  /** The answer within the request's deadline: a store outage is 503, any other throw 500. */
  function answerOf(request: PlainRequest, match: RouteMatch, trace: Trace): Promise<PlainResponse> {
    const unavailable = (reason: string): PlainResponse => {
      outage.unavailable(reason);
      return serverFailure(trace, 'service_unavailable', UNAVAILABLE_HEADERS);
    };
    // A client still sending its body at the deadline is slow, not the store: 408 and its own log event.
    const slowClient = (): PlainResponse => {
      deps.logger?.warn?.({ event: 'http.body_timeout', route: trace.route, requestId: trace.requestId });
      const answer = { requestId: trace.requestId, now: deps.clock.now() };
      return trace.route === 'token'
        ? tokenFailure(answer, 'request_timeout')
        : failure(answer, 'request_timeout');
    };
    const body = watchBody(request);
    const work = dispatch(body.request, match, trace).then(
      (answered) => {
        // Served from the store: an authenticated request, or a token issued (a 404 proves nothing).
        if (answered.status < 500 && (trace.clientId || answered.status === 200)) outage.served();
        return answered;
      },
      (error: unknown) => {
        if (isStoreUnavailable(error)) return unavailable(error.reason);
        if (isClientAborted(error)) {
          trace.clientAborted = true;
          return { status: CLIENT_ABORTED_STATUS, headers: { connection: 'close' }, body: null };
        }
        deps.logger?.error?.(redact({ event: 'http.failure', ...trace, error }) as { event: string });
        return serverFailure(trace, 'internal_error');
      },
    );
    return withDeadline(work, limits.requestDeadlineMs, () =>
      body.arriving() ? slowClient() : unavailable('request_deadline'),
    );
  }

  /** `match`: the request's route, matched once by the service for this handler and its telemetry. */
  return async function handle(request: PlainRequest, match: RouteMatch): Promise<PlainResponse> {
    const started = performance.now();
    const trace: Trace = { route: 'unknown' };
    const response = await answerOf(request, match, trace);
    const durationMs = Math.ceil(performance.now() - started);
    // Grown from a copy, not a spread-begun literal (decision TR-5): ours win over the answer's.
    const headers: Record<string, string> = Object.assign({}, response.headers);
    headers['x-processing-time-ms'] = String(durationMs);
    if (trace.requestId) headers['x-request-id'] = trace.requestId;
    // RFC 6749 5.1: no answer at the token endpoint's path is cached, its 5xx and the router's 405 to another
    // method included (RFC 9110 15.1 lets a cache keep a 405); this is the one place that says so.
    if (request.path === endpoints.tokenPath) Object.assign(headers, NO_STORE_HEADERS);
    if (deps.logger && trace.clientAborted) logClientAborted(deps.logger, trace, durationMs);
    else if (deps.logger) logRequest(deps.logger, trace, response, durationMs);
    return { status: response.status, headers, body: response.body };
  };
}
