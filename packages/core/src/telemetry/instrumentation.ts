// The SDKs' spans and metrics over the optional OpenTelemetry API, with no OpenTelemetry type in our public types.
import type { BatchObservableCallback } from '@opentelemetry/api';
import { nothingRegistered } from './nothing-registered.js';
import { openTelemetry } from './open-telemetry.js';

/** Attribute values OpenTelemetry accepts; `undefined` ones are left out. */
export type TelemetryAttributes = Readonly<
  Record<string, string | number | boolean | readonly string[] | undefined>
>;

export interface SpanHandle {
  set(attributes: TelemetryAttributes): void;
  event(name: string, attributes?: TelemetryAttributes): void;
  /** Marks the span failed, naming what failed in `error.type` (a code or a status, never a message). */
  fail(errorType: string): void;
  /** Writes this span's W3C `traceparent` (and `tracestate`) into a request's headers. */
  inject(headers: Record<string, string>): void;
}

export interface SpanStart {
  kind: 'client' | 'server' | 'internal';
  attributes?: TelemetryAttributes;
  /** A server span's request headers by lower-case name: the span continues the trace they carry. */
  incoming?: (name: string) => string | undefined;
}

export interface InstrumentSpec {
  name: string;
  description: string;
  unit?: string;
}

export type RecordMetric = (value: number, attributes?: TelemetryAttributes) => void;

export interface Instrumentation {
  /**
   * Whether anything can record: @opentelemetry/api installed and, when the instruments were made, a tracer
   * provider, meter provider or propagator registered. Off, the SDKs install no wrapper at all.
   */
  readonly enabled: boolean;
  /**
   * Runs `work` in a new span, the parent of the spans `work` starts (through the host's context manager).
   * A throw marks the span failed with the error's `code` (else its name) and goes on.
   */
  span<T>(name: string, start: SpanStart, work: (span: SpanHandle) => Promise<T>): Promise<T>;
  counter(spec: InstrumentSpec): RecordMetric;
  /** `boundaries`: the explicit bucket boundaries advised to the SDK. */
  histogram(spec: InstrumentSpec, boundaries?: readonly number[]): RecordMetric;
  /**
   * Gauges read together at each collection by `observe`, which reports each by its key. Returns the
   * function that stops them (a closed service must not read its store).
   */
  gauges<Key extends string>(
    gauges: Readonly<{ [K in Key]: InstrumentSpec }>,
    observe: (report: (gauge: Key, value: number, attributes?: TelemetryAttributes) => void) => Promise<void>,
  ): () => void;
}

/** The span of work no one traces. */
export const noopSpan: SpanHandle = { set() {}, event() {}, fail() {}, inject() {} };
const noop = () => {};

const disabled: Instrumentation = {
  enabled: false,
  span: (_name, _start, work) => work(noopSpan),
  counter: () => noop,
  histogram: () => noop,
  gauges: () => noop,
};

/** Attributes without their `undefined` values, as OpenTelemetry wants them. */
function defined(attributes: TelemetryAttributes | undefined): {
  [name: string]: string | number | boolean | string[];
} {
  const out: { [name: string]: string | number | boolean | string[] } = {};
  if (attributes)
    for (const [name, value] of Object.entries(attributes))
      if (value !== undefined) out[name] = typeof value === 'object' ? [...value] : value;
  return out;
}

/** `error.type` of a thrown value: a FinError's code, else the error's name. */
function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : '_OTHER';
}

const headersSetter = {
  set: (carrier: Record<string, string>, key: string, value: string) => {
    carrier[key] = value;
  },
};
const headersGetter = {
  get: (carrier: (name: string) => string | undefined, key: string) => carrier(key.toLowerCase()),
  keys: () => [] as string[],
};

/**
 * The instruments of one package (`scope`: its npm name and version). Call it when a client or service is
 * created, after the host registered its providers: with none registered by then, it stays a no-op.
 */
export function createInstrumentation(scope: { name: string; version: string }): Instrumentation {
  const api = openTelemetry();
  // Absent, or present with nothing registered: no wrapper at all, so the request path pays nothing.
  if (!api || nothingRegistered(api, scope)) return disabled;
  const { context, propagation, trace, SpanKind, SpanStatusCode } = api;
  const tracer = trace.getTracer(scope.name, scope.version);
  const meter = api.metrics.getMeter(scope.name, scope.version);
  const kinds = { client: SpanKind.CLIENT, server: SpanKind.SERVER, internal: SpanKind.INTERNAL };

  return {
    enabled: true,
    span(name, start, work) {
      const active = context.active();
      const parent = start.incoming ? propagation.extract(active, start.incoming, headersGetter) : active;
      const span = tracer.startSpan(
        name,
        { kind: kinds[start.kind], attributes: defined(start.attributes) },
        parent,
      );
      const spanContext = trace.setSpan(parent, span);
      // No provider, or a sampler that left this span out: nothing to record, only a trace to pass on.
      if (!span.isRecording()) {
        const passOn: SpanHandle = {
          ...noopSpan,
          inject: (headers) => propagation.inject(spanContext, headers, headersSetter),
        };
        return start.incoming ? context.with(spanContext, work, undefined, passOn) : work(passOn);
      }
      const handle: SpanHandle = {
        set: (attributes) => span.setAttributes(defined(attributes)),
        event: (eventName, attributes) => void span.addEvent(eventName, defined(attributes)),
        fail: (errorType) => {
          span.setAttribute('error.type', errorType);
          span.setStatus({ code: SpanStatusCode.ERROR });
        },
        inject: (headers) => propagation.inject(spanContext, headers, headersSetter),
      };
      return context.with(spanContext, async () => {
        try {
          return await work(handle);
        } catch (error) {
          handle.fail(errorTypeOf(error));
          throw error;
        } finally {
          span.end();
        }
      });
    },
    counter(spec) {
      const counter = meter.createCounter(spec.name, { description: spec.description, unit: spec.unit });
      return (value, attributes) => counter.add(value, defined(attributes));
    },
    histogram(spec, boundaries) {
      const histogram = meter.createHistogram(spec.name, {
        description: spec.description,
        unit: spec.unit,
        ...(boundaries ? { advice: { explicitBucketBoundaries: [...boundaries] } } : {}),
      });
      return (value, attributes) => histogram.record(value, defined(attributes));
    },
    gauges(specs, observe) {
      const entries = Object.entries(specs) as [string, InstrumentSpec][];
      const gauges = new Map(
        entries.map(([key, spec]) => [
          key,
          meter.createObservableGauge(spec.name, { description: spec.description, unit: spec.unit }),
        ]),
      );
      const callback: BatchObservableCallback = (result) =>
        observe((key, value, attributes) => {
          const gauge = gauges.get(key);
          if (gauge) result.observe(gauge, value, defined(attributes));
        });
      meter.addBatchObservableCallback(callback, [...gauges.values()]);
      return () => meter.removeBatchObservableCallback(callback, [...gauges.values()]);
    },
  };
}
