// A call's client span and metrics (OpenTelemetry HTTP semantic conventions); nothing at all without the API.
import { isFinApiError } from '../errors/index.js';
import { createInstrumentation, type Instrumentation, type RecordMetric } from '../telemetry/index.js';
import type { CallContext } from './call-context.js';
import type { HttpResult, SdkInfo } from './types.js';

/** The semantic conventions' advised buckets for HTTP durations, in seconds. */
export const HTTP_DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

export interface TransportTelemetry {
  readonly instrumentation: Instrumentation;
  readonly server: { 'server.address': string; 'server.port': number };
  /** `http.client.request.duration`: one per call, retries and waits included. */
  readonly duration: RecordMetric;
  /** `fin.client.rate_limited`: 429 answers received, by rate class. */
  readonly rateLimited: RecordMetric;
}

const fallbackScope = { name: '@fin/core', version: '0.0.0' };

export function createTransportTelemetry(baseUrl: string, sdk: SdkInfo | undefined): TransportTelemetry {
  const instrumentation = createInstrumentation(sdk ?? fallbackScope);
  const url = new URL(baseUrl);
  return {
    instrumentation,
    server: {
      'server.address': url.hostname,
      'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    },
    duration: instrumentation.histogram(
      {
        name: 'http.client.request.duration',
        description: 'Duration of SDK calls, retries and waits included.',
        unit: 's',
      },
      HTTP_DURATION_BUCKETS,
    ),
    rateLimited: instrumentation.counter({
      name: 'fin.client.rate_limited',
      description: 'HTTP 429 answers received, by rate class.',
      unit: '{response}',
    }),
  };
}

/**
 * Runs a call in its client span `POST /v1/sales/authorize` (the route template, never ids or the query):
 * the correlation id and the answering attempt's request id as attributes, attempts, retries and waits as
 * its events, `traceparent` on every attempt; and records its duration.
 */
export function traceCall<T>(
  telemetry: TransportTelemetry,
  baseUrl: string,
  context: CallContext,
  run: () => Promise<HttpResult<T>>,
): Promise<HttpResult<T>> {
  if (!telemetry.instrumentation.enabled) return run();
  const { call } = context;
  const route = call.route ?? call.path;
  const common = { 'http.request.method': call.method, 'url.template': route, ...telemetry.server };
  const started = performance.now();
  const attributes = {
    ...common,
    'url.full': `${baseUrl}${call.path}`,
    'fin.rate_class': call.rate,
    'http.request.header.x-correlation-id': [context.correlationId],
  };
  return telemetry.instrumentation.span(
    `${call.method} ${route}`,
    { kind: 'client', attributes },
    async (span) => {
      context.span = span;
      let status: number | undefined;
      let errorType: string | undefined;
      try {
        const result = await run();
        status = result.meta.status;
        return result;
      } catch (error) {
        status = isFinApiError(error) ? error.status : undefined;
        errorType = (error as { code?: string }).code ?? (error instanceof Error ? error.name : '_OTHER');
        throw error;
      } finally {
        const requestId = context.requestIds.at(-1);
        span.set({
          'http.response.status_code': status,
          'http.request.resend_count': context.attempts > 1 ? context.attempts - 1 : undefined,
          'http.request.header.x-request-id': requestId ? [requestId] : undefined,
        });
        telemetry.duration((performance.now() - started) / 1000, {
          ...common,
          'http.response.status_code': status,
          'error.type': errorType,
        });
      }
    },
  );
}
