// `pnpm demo --trace`: the OpenTelemetry SDK in memory while the demo runs, then its own spans, one tree per trace.
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** One finished span as the demo prints it (`--json`: one `span` event each). */
export interface SpanLine {
  event: 'span';
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: string;
  durationMs: number;
  status: number | undefined;
  attributes: ReadableSpan['attributes'];
  events: string[];
}

export interface DemoTracing {
  /** The spans finished so far, parents before children, in start order. */
  spans(): SpanLine[];
}

/** Whole milliseconds of a span (its duration is [seconds, nanoseconds]). */
const durationMs = (span: ReadableSpan) => span.duration[0] * 1000 + Math.trunc(span.duration[1] / 1e6);

/**
 * Registers the SDK before the demo creates any client or service (their instruments are taken then): an
 * AsyncLocalStorage context manager, so store and credit spans nest under their request, and W3C propagation.
 */
export function startTracing(): DemoTracing {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    spans: () => {
      const finished = [...exporter.getFinishedSpans()].sort(
        (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1],
      );
      const children = new Map<string | undefined, ReadableSpan[]>();
      const ids = new Set(finished.map((span) => span.spanContext().spanId));
      for (const span of finished) {
        // A span whose parent is not among ours (none, or another process's) starts a tree.
        const parent = span.parentSpanContext?.spanId;
        const key = parent && ids.has(parent) ? parent : undefined;
        children.set(key, [...(children.get(key) ?? []), span]);
      }
      const lines: SpanLine[] = [];
      const visit = (span: ReadableSpan) => {
        lines.push({
          event: 'span',
          traceId: span.spanContext().traceId,
          spanId: span.spanContext().spanId,
          parentSpanId: span.parentSpanContext?.spanId,
          name: span.name,
          kind: SpanKind[span.kind].toLowerCase(),
          durationMs: durationMs(span),
          status: span.attributes['http.response.status_code'] as number | undefined,
          attributes: span.attributes,
          events: span.events.map((event) => event.name),
        });
        for (const child of children.get(span.spanContext().spanId) ?? []) visit(child);
      };
      for (const root of children.get(undefined) ?? []) visit(root);
      return lines;
    },
  };
}

/** The spans as indented text, one tree per trace; store spans counted on their parent's line. */
export function spanTree(lines: readonly SpanLine[]): string {
  const isStore = (line: SpanLine) => line.name.startsWith('store.');
  const storeCalls = new Map<string | undefined, number>();
  for (const line of lines.filter(isStore))
    storeCalls.set(line.parentSpanId, (storeCalls.get(line.parentSpanId) ?? 0) + 1);
  const depth = new Map<string, number>();
  const out = ['', `Spans (${lines.length}; --json --trace lists each with its attributes)`];
  for (const line of lines) {
    const level = line.parentSpanId ? (depth.get(line.parentSpanId) ?? -1) + 1 : 0;
    depth.set(line.spanId, level);
    if (isStore(line)) continue;
    const status = line.status === undefined ? '' : ` ${line.status}`;
    const store = storeCalls.get(line.spanId);
    const calls = store ? `, ${store} store call${store === 1 ? '' : 's'}` : '';
    out.push(`${'  '.repeat(level + 1)}${line.name} [${line.kind}]${status} ${line.durationMs} ms${calls}`);
  }
  const workers = storeCalls.get(undefined);
  if (workers) out.push(`  ${workers} store calls outside any request (the workers')`);
  return `${out.join('\n')}\n`;
}
