// The pure core: one PlainRequest in, one PlainResponse out; ids, auth, rate limit, body, schema, idempotency, use case.
import { type ErrorCode, endpoints, type Logger, redact, schemas } from '@fin/core';
import { authenticateBearer } from '../auth/bearer.js';
import { issueToken } from '../auth/token-endpoint.js';
import { readJson, watchBody } from '../http/body.js';
import { type AnswerContext, type FailureOptions, failure, success, tokenFailure } from '../http/envelope.js';
import { outcomeOf } from '../http/outcome.js';
import { perMinuteHit, retryAfter } from '../http/per-minute-limit.js';
import type { PlainRequest, PlainResponse } from '../http/plain.js';
import { readRequestIds } from '../http/request-ids.js';
import { matchRoute } from '../http/routes.js';
import { validate } from '../http/validate.js';
import { requestFingerprint } from '../idempotency/fingerprint.js';
import { createIdempotency } from '../idempotency/idempotency.js';
import { isStoreUnavailable } from '../ports/store-unavailable.js';
import type { Seal, UseCaseResult } from '../use-cases/result.js';
import { withDeadline } from './deadline.js';
import type { ServiceDeps } from './deps.js';
import { createOutageMonitor } from './outage.js';
import { type UseCaseId, useCaseOf } from './use-case-table.js';

/** A matched call of the API: which endpoint, with its path parameters. */
interface ApiRoute {
  operationId: UseCaseId;
  params: Record<string, string>;
}

/** What the log line of a request carries besides status and timing. */
interface Trace {
  route: string;
  requestId?: string;
  correlationId?: string;
  clientId?: string;
  authorizationId?: string;
  /** Masked by `redact` before logging, like every CPF and IMEI. */
  clientTaxId?: string;
  imei?: string;
  replayed?: boolean;
}

/** `Retry-After` of every 503 `service_unavailable`: the clients retry with the same key after it. */
const UNAVAILABLE_HEADERS = { 'retry-after': '1' };
const NO_STORE_HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache' };
/** A waiting duplicate gives up this long before its request's deadline, to answer 409 in progress in time. */
const DEADLINE_MARGIN_MS = 250;

export function createRequestHandler(deps: ServiceDeps) {
  const idempotency = createIdempotency(deps);
  const outage = createOutageMonitor(deps.logger);
  const { limits } = deps.settings;

  async function api(
    request: PlainRequest,
    route: ApiRoute,
    ctx: AnswerContext,
    trace: Trace,
  ): Promise<PlainResponse> {
    const endpoint = endpoints.salesAuthorization[route.operationId];
    const auth = await authenticateBearer(deps, request, endpoint.scopes, ctx.now);
    if (!auth.ok) return failure(ctx, auth.code, { headers: auth.headers });
    const clientId = auth.client.clientId;
    trace.clientId = clientId;
    // Every write counts one hit (spec 8), and a write over the limit is answered 429 before anything
    // else. The hit is counted with the idempotency claim (one store step); a request refused before
    // its claim counts it alone, then is answered 429 if over the limit, else its own refusal.
    const hit = perMinuteHit(`write:${clientId}`, limits.writesPerMinute, ctx.now);
    const refuse = async (code: ErrorCode, options?: FailureOptions) => {
      const limited = retryAfter(await deps.rateLimiter.consumeRateLimit(hit), ctx.now);
      return limited
        ? failure(ctx, 'rate_limit_exceeded', { headers: limited })
        : failure(ctx, code, options);
    };
    const key = request.header('idempotency-key');
    if (key === undefined || key.trim() === '') {
      return refuse('missing_idempotency_key', {
        details: [{ field: 'header.Idempotency-Key', issue: 'is required on every write POST (uuid v4)' }],
      });
    }
    if (!schemas.uuid.safeParse(key).success) {
      return refuse('validation_error', {
        details: [{ field: 'header.Idempotency-Key', issue: 'must be a uuid v4' }],
      });
    }
    const body = await readJson(request, limits.maxBodyBytes);
    if (!body.ok) return refuse(body.code, { details: body.details });
    const checked = validate(endpoint.body.schema, body.value);
    if (!checked.ok) return refuse(checked.code, { details: checked.details });
    const useCase = useCaseOf(route.operationId);
    Object.assign(trace, useCase.trace?.(checked.data));

    const fingerprint = requestFingerprint(request.method, request.path, body.value);
    const outcome = await idempotency.run(
      clientId,
      key.toLowerCase(),
      fingerprint,
      async (owned) => {
        const now = deps.clock.now();
        // The answer is built before the write that makes it true, which stores it (the atomic phase).
        const seal: Seal = (result) => owned.answer(answer({ ...ctx, now }, result));
        const client = deps.clients.get(clientId)!;
        const call = {
          client,
          body: checked.data,
          params: route.params,
          correlationId: trace.correlationId,
          now,
          seal,
          found: owned.found,
        };
        const result = await useCase.run(deps, call);
        return { response: answer({ ...ctx, now }, result), answered: result.answered === true };
      },
      hit,
      // A duplicate waits for the first request's answer at most until shortly before its own deadline.
      limits.requestDeadlineMs - DEADLINE_MARGIN_MS,
      useCase.lookup?.(auth.client, checked.data, deps.clock.now()),
    );
    switch (outcome.kind) {
      case 'rate_limited':
        return failure(ctx, 'rate_limit_exceeded', { headers: retryAfter(outcome.decision, ctx.now) });
      case 'ran':
        return outcome.response;
      case 'replayed':
        trace.replayed = true;
        return replay(outcome.response, ctx.requestId);
      case 'conflict':
        return failure(ctx, 'idempotency_key_conflict', {
          details: [{ field: 'header.Idempotency-Key', issue: 'was used for a different request' }],
        });
      case 'in_progress':
        return failure(ctx, 'idempotency_key_in_progress', { headers: { 'retry-after': '1' } });
    }
  }

  async function dispatch(request: PlainRequest, trace: Trace): Promise<PlainResponse> {
    const match = matchRoute(request.method, request.path);
    const token = match.ok && match.operationId === 'issueToken';
    const ids = readRequestIds(request, !token);
    trace.requestId = ids.requestId;
    if (ids.ok) trace.correlationId = ids.correlationId;
    const ctx: AnswerContext = { requestId: ids.requestId, now: deps.clock.now() };
    // Shutting down (`close()`): no new work; the client retries on another instance after Retry-After.
    if (deps.stopping.aborted) return failure(ctx, 'service_unavailable', { headers: UNAVAILABLE_HEADERS });
    if (!match.ok) {
      return failure(
        ctx,
        match.code,
        match.code === 'method_not_allowed' ? { headers: { allow: match.allow } } : {},
      );
    }
    if (match.operationId === 'issueToken') {
      trace.route = 'token';
      if (!ids.ok) {
        return tokenFailure(ctx, 'invalid_request_id', {
          description: ids.details.map((d) => `${d.field} ${d.issue}`).join('; '),
        });
      }
      return issueToken(deps, request, ctx);
    }
    const route = { operationId: match.operationId, params: match.params };
    trace.route = useCaseOf(route.operationId).route;
    trace.authorizationId = route.params.id;
    if (!ids.ok) return failure(ctx, 'invalid_request_id', { details: ids.details });
    return api(request, route, ctx, trace);
  }

  function log(logger: Logger, trace: Trace, response: PlainResponse, durationMs: number): void {
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

  return async function handle(request: PlainRequest): Promise<PlainResponse> {
    const started = performance.now();
    const trace: Trace = { route: 'unknown' };
    /** A 5xx in the body format of the route: RFC 6749's at the token endpoint, the envelope elsewhere. */
    const serverFailure = (code: 'internal_error' | 'service_unavailable', headers = {}) => {
      const ctx = { requestId: trace.requestId, now: deps.clock.now() };
      return trace.route === 'token' ? tokenFailure(ctx, code, { headers }) : failure(ctx, code, { headers });
    };
    const unavailable = (reason: string): PlainResponse => {
      outage.unavailable(reason);
      return serverFailure('service_unavailable', UNAVAILABLE_HEADERS);
    };
    // A client still sending its body at the deadline is slow, not the store: 408 and its own log event.
    const slowClient = (): PlainResponse => {
      deps.logger?.warn?.({ event: 'http.body_timeout', route: trace.route, requestId: trace.requestId });
      const ctx = { requestId: trace.requestId, now: deps.clock.now() };
      return trace.route === 'token' ? tokenFailure(ctx, 'request_timeout') : failure(ctx, 'request_timeout');
    };
    const body = watchBody(request);
    const work = dispatch(body.request, trace).then(
      (answered) => {
        // Served from the store: an authenticated request, or a token issued (a 404 proves nothing).
        if (answered.status < 500 && (trace.clientId || answered.status === 200)) outage.served();
        return answered;
      },
      (error: unknown) => {
        if (isStoreUnavailable(error)) return unavailable(error.reason);
        deps.logger?.error?.(redact({ event: 'http.failure', ...trace, error }) as { event: string });
        return serverFailure('internal_error');
      },
    );
    const response = await withDeadline(work, limits.requestDeadlineMs, () =>
      body.arriving() ? slowClient() : unavailable('request_deadline'),
    );
    const durationMs = Math.ceil(performance.now() - started);
    const headers: Record<string, string> = {
      ...response.headers,
      'x-processing-time-ms': String(durationMs),
      ...(trace.requestId ? { 'x-request-id': trace.requestId } : undefined),
      // RFC 6749 5.1: no token answer is cached, its 500 and 503 included.
      ...(trace.route === 'token' ? NO_STORE_HEADERS : undefined),
    };
    if (deps.logger) log(deps.logger, trace, response, durationMs);
    return { status: response.status, headers, body: response.body };
  };
}

function answer(ctx: AnswerContext, result: UseCaseResult): PlainResponse {
  if (result.ok) return success(ctx, result.data, result.message);
  return failure(ctx, result.code, {
    details: result.details,
    ...(result.code === 'service_unavailable' ? { headers: UNAVAILABLE_HEADERS } : {}),
  });
}

/** The stored answer, echoing this request's id; everything else as first answered. */
function replay(stored: PlainResponse, requestId: string | undefined): PlainResponse {
  const body = stored.body as Record<string, unknown>;
  return {
    status: stored.status,
    headers: { ...stored.headers, 'idempotent-replayed': 'true' },
    body: { ...body, ...(requestId ? { requestId } : {}) } as PlainResponse['body'],
  };
}
