// The OpenTelemetry SDK as a host registers it, with in-memory exporters a test reads (spans, metrics).
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** One data point of a collected metric: its attributes and value (a histogram's count for a histogram). */
export interface Point {
  attributes: Record<string, unknown>;
  value: number;
}

export interface OtelSdk {
  spans(): ReadableSpan[];
  /** Collects every instrument now (observable gauges read their callbacks) and returns the points by name. */
  collect(): Promise<Map<string, Point[]>>;
  /** Spans and the last collection as text, for the leak audit. */
  text(): string;
  shutdown(): Promise<void>;
}

/** Registers tracer and meter providers, the W3C propagator and an AsyncLocalStorage context manager. */
export function installOtelSdk(): OtelSdk {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Collected on demand only (forceFlush): the interval never fires within a test.
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  let lastCollection = '';

  return {
    spans: () => spanExporter.getFinishedSpans(),
    async collect() {
      metricExporter.reset();
      await reader.forceFlush();
      const points = new Map<string, Point[]>();
      for (const resource of metricExporter.getMetrics())
        for (const scope of resource.scopeMetrics)
          for (const metric of scope.metrics) {
            // One name may come from several packages (each client records http.client.request.duration).
            const found = points.get(metric.descriptor.name) ?? [];
            for (const point of metric.dataPoints) {
              const { value } = point;
              found.push({
                attributes: { ...point.attributes },
                value: typeof value === 'number' ? value : (value as { count: number }).count,
              });
            }
            points.set(metric.descriptor.name, found);
          }
      lastCollection = JSON.stringify([...points]);
      return points;
    },
    text: () => spanText(spanExporter.getFinishedSpans()) + lastCollection,
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** What a span exports: its name, attributes, events with their attributes, and status. */
export function spanText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      status: span.status,
    })),
  );
}
