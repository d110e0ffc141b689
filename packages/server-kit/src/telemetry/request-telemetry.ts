// The server span of every request and the request metrics, named by OpenTelemetry's HTTP semantic conventions.
import { endpoints } from '@fin/core';
import { HTTP_DURATION_BUCKETS, type Instrumentation } from '@fin/core/transport';
import { declineReasonOf, outcomeOf } from '../http/outcome.js';
import type { PlainRequest, PlainResponse } from '../http/plain.js';
import type { RouteMatch } from '../http/routes.js';
import { isUuidV4 } from '../http/uuid-header.js';

/** The service's handler, given the request's route as matched once for it. */
type Handler = (request: PlainRequest, match: RouteMatch) => Promise<PlainResponse>;

const api = endpoints.salesAuthorization;

/** An id header only when it is a uuid v4, as the API requires: a partner's header could carry anything. */
function idHeader(request: PlainRequest, name: string): string[] | undefined {
  const value = request.header(name);
  return value !== undefined && isUuidV4(value) ? [value.toLowerCase()] : undefined;
}

/** `server.address` and `server.port` from the Host header, when it is a host. */
function serverOf(request: PlainRequest): { 'server.address'?: string; 'server.port'?: number } {
  const host = request.header('host');
  if (!host) return {};
  try {
    const url = new URL(`http://${host}`);
    return { 'server.address': url.hostname, 'server.port': url.port ? Number(url.port) : undefined };
  } catch {
    return {};
  }
}

/**
 * Wraps the service's handler: a server span per request continuing the caller's `traceparent` (the parent
 * of the store and credit engine spans), `http.server.request.duration` by route and status, authorize
 * outcomes, 429s by rate class and idempotent replays. The handler itself when the API is absent.
 */
export function traceRequests(handler: Handler, instrumentation: Instrumentation): Handler {
  if (!instrumentation.enabled) return handler;
  const duration = instrumentation.histogram(
    { name: 'http.server.request.duration', description: 'Duration of API requests.', unit: 's' },
    HTTP_DURATION_BUCKETS,
  );
  const authorizeOutcomes = instrumentation.counter({
    name: 'fin.authorize.outcomes',
    description: 'Authorize answers: authorized, declined (by reason) or refused (by error code).',
    unit: '{request}',
  });
  const rateLimited = instrumentation.counter({
    name: 'fin.rate_limit.rejections',
    description: 'Requests answered 429, by rate class.',
    unit: '{request}',
  });
  const replays = instrumentation.counter({
    name: 'fin.idempotency.replays',
    description: 'Writes answered from the stored answer of their Idempotency-Key.',
    unit: '{request}',
  });

  return (request, match) => {
    /** The registry entry the request addresses; `undefined` for a path or method the API does not have. */
    const endpoint = match.ok ? api[match.operationId] : undefined;
    /** The route template (`/v1/sales/{id}/confirm`). */
    const route = endpoint?.path;
    const started = performance.now();
    const common = { 'http.request.method': request.method, 'http.route': route };
    const attributes = {
      ...common,
      ...serverOf(request),
      'url.path': request.path,
      'http.request.header.x-request-id': idHeader(request, 'x-request-id'),
      'http.request.header.x-correlation-id': idHeader(request, 'x-correlation-id'),
    };
    const name = route ? `${request.method} ${route}` : request.method;
    return instrumentation.span(
      name,
      { kind: 'server', attributes, incoming: (header) => request.header(header) },
      async (span) => {
        const response = await handler(request, match);
        const { status } = response;
        const outcome = outcomeOf(response);
        const replayed = response.headers['idempotent-replayed'] === 'true';
        // Server spans fail on 5xx only: a 4xx is the caller's mistake, answered as designed.
        const errorType = status >= 500 ? outcome : undefined;
        span.set({
          'http.response.status_code': status,
          'fin.outcome': outcome,
          'fin.idempotent_replay': replayed || undefined,
        });
        if (errorType) span.fail(errorType);
        duration((performance.now() - started) / 1000, {
          ...common,
          'http.response.status_code': status,
          'error.type': errorType,
        });
        if (route === api.authorizeSale.path && !replayed) {
          const declined = outcome === 'declined';
          authorizeOutcomes(1, {
            'fin.outcome': outcome === 'authorized' || declined ? outcome : 'refused',
            'fin.decline_reason': declined ? declineReasonOf(response) : undefined,
            'error.type': outcome === 'authorized' || declined ? undefined : outcome,
          });
        }
        if (status === 429) {
          rateLimited(1, {
            'fin.rate_class': endpoint?.rate,
            'http.route': route,
          });
        }
        if (replayed) replays(1, { 'http.route': route });
        return response;
      },
    );
  };
}
