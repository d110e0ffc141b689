// What a client tells: its log (through `redact`), its `on('request' | 'response')` listeners, a call's span and metrics.
import type { RateClass } from '../endpoints/endpoint.js';
import { isFinApiError } from '../errors/index.js';
import type { LogEntry, Logger, LogLevel } from '../logger/index.js';
import { redact } from '../redact/index.js';
import {
  createInstrumentation,
  type Instrumentation,
  type RecordMetric,
  type SpanHandle,
} from '../telemetry/index.js';
import type { ClientEventListener, ClientEventName, ClientEvents, HttpResult, SdkInfo } from './types.js';

export type TransportLog = (level: LogLevel, entry: LogEntry) => void;

/** Writes to `logger` at `level` when it has that method; a silent client (the default) does nothing. */
export function createTransportLog(logger: Logger | undefined): TransportLog {
  return (level, entry) => {
    const write = logger?.[level];
    if (write) write.call(logger, redact(entry) as LogEntry);
  };
}

/** The listeners of one client: `on`/`off` for its users, `emit` for its attempts. */
export interface ClientEventHub {
  on<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): void;
  off<E extends ClientEventName>(name: E, listener: ClientEventListener<E>): void;
  emit<E extends ClientEventName>(name: E, event: ClientEvents[E]): void;
  /** Whether any listener is added, so an attempt without one builds no event. */
  listening(): boolean;
}

const NAMES: readonly ClientEventName[] = ['request', 'response'];

/**
 * Listeners run synchronously, in the order added, each on its own frozen copy of the event. One that
 * throws (or returns a rejected promise) is logged as `http.listener_failed` and the call goes on.
 */
export function createClientEvents(log: TransportLog): ClientEventHub {
  const listeners = {
    request: new Set<ClientEventListener<'request'>>(),
    response: new Set<ClientEventListener<'response'>>(),
  };
  const setOf = <E extends ClientEventName>(name: E) => {
    if (!NAMES.includes(name))
      throw new TypeError(`unknown client event '${String(name)}': 'request' or 'response'`);
    return listeners[name] as unknown as Set<ClientEventListener<E>>;
  };
  const failed = (name: ClientEventName, error: unknown) =>
    log('warn', {
      event: 'http.listener_failed',
      listener: name,
      error: error instanceof Error ? error.name : typeof error,
    });
  return {
    on: (name, listener) => void setOf(name).add(listener),
    off: (name, listener) => void setOf(name).delete(listener),
    listening: () => NAMES.some((name) => listeners[name].size > 0),
    emit(name, event) {
      const set = setOf(name);
      if (set.size === 0) return;
      for (const listener of set) {
        try {
          const returned: unknown = listener(Object.freeze(Object.assign({}, event)) as typeof event);
          if (returned instanceof Promise) returned.catch((error: unknown) => failed(name, error));
        } catch (error) {
          failed(name, error);
        }
      }
    },
  };
}

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

/** What the span of a call reads from it, and where the call keeps its span for its attempts' events. */
export interface TracedCall {
  readonly call: { method: string; path: string; route?: string; rate: RateClass };
  readonly correlationId: string;
  readonly requestIds: readonly string[];
  readonly attempts: number;
  span: SpanHandle;
}

/**
 * Runs a call in its client span `POST /v1/sales/authorize` (the route template, never ids or the query):
 * the correlation id and the answering attempt's request id as attributes, attempts, retries and waits as
 * its events, `traceparent` on every attempt; and records its duration.
 */
export function traceCall<C extends TracedCall, T>(
  telemetry: TransportTelemetry,
  baseUrl: string,
  context: C,
  run: (context: C) => Promise<HttpResult<T>>,
): Promise<HttpResult<T>> {
  if (!telemetry.instrumentation.enabled) return run(context);
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
        const result = await run(context);
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
