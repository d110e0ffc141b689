// Tracing cost: authorize in one process (client -> service -> memory store) with tracing off (no provider) and on (SDK).
import { AuthorizationClient } from '@fin/authorization-client';
import { createInstrumentation } from '@fin/core/transport';
import * as kit from '@fin/server-kit';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { type ExportResult, ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { cartStream } from '../lib/cart.js';
import { commandOf, type Figure, type FigureOptions, fixed, type Row } from '../lib/figure.js';
import { BENCH_CLIENT, benchService } from '../targets/bench-service.js';

const plans = { full: { warmup: 500, calls: 3000 }, quick: { warmup: 100, calls: 500 } };

interface Spent {
  perCallUs: number;
  cpuPerCallUs: number;
}

/**
 * A client and a service created now (their instruments are taken at creation, so after the providers
 * of the phase), wired in process so the figure is the SDKs' own work, not the loopback's.
 */
function journey(seed: number) {
  const service = benchService(kit, kit.memoryStore());
  const client = new AuthorizationClient({
    baseUrl: 'http://bench.invalid',
    ...BENCH_CLIENT,
    rateLimit: false,
    fetch: (input, init) => service.fetch(new Request(input, init)),
  });
  const carts = cartStream(seed);
  const call = async () => {
    const outcome = await client.authorize(carts());
    if (!outcome.authorized) throw new Error('bench authorization declined');
  };
  return { call, close: () => service.close() };
}

async function measure(seed: number, plan: { warmup: number; calls: number }): Promise<Spent> {
  const { call, close } = journey(seed);
  try {
    for (let i = 0; i < plan.warmup; i++) await call();
    const cpu = process.cpuUsage();
    const startedAt = performance.now();
    for (let i = 0; i < plan.calls; i++) await call();
    const wallMs = performance.now() - startedAt;
    const used = process.cpuUsage(cpu);
    return {
      perCallUs: (wallMs * 1000) / plan.calls,
      cpuPerCallUs: (used.user + used.system) / plan.calls,
    };
  } finally {
    await close();
  }
}

/** What a production host registers: batch span processor (its exporter here counts and drops), metrics, context. */
function registerSdk() {
  let exported = 0;
  const exporter = {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      exported += spans.length;
      done({ code: ExportResultCode.SUCCESS });
    },
    shutdown: async () => {},
  };
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 65_536, maxExportBatchSize: 4096 })],
  });
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
        exportIntervalMillis: 60_000,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    async spansExported() {
      await tracerProvider.forceFlush();
      return exported;
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      trace.disable();
      metrics.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** Microseconds one span costs with no provider registered: what tracing off adds per span. */
async function noProviderSpanUs(): Promise<number> {
  const instrumentation = createInstrumentation({ name: 'bench', version: '0.0.0' });
  const spans = 100_000;
  const work = async () => {};
  for (let i = 0; i < 10_000; i++) await instrumentation.span('warmup', { kind: 'internal' }, work);
  // Net of the awaited work itself, timed the same way.
  const bareAt = performance.now();
  for (let i = 0; i < spans; i++) await work();
  const bareMs = performance.now() - bareAt;
  const startedAt = performance.now();
  for (let i = 0; i < spans; i++) await instrumentation.span('bench', { kind: 'internal' }, work);
  return (Math.max(0, performance.now() - startedAt - bareMs) * 1000) / spans;
}

async function run(options: FigureOptions): Promise<Row[]> {
  const plan = options.quick ? plans.quick : plans.full;
  const command = commandOf('tracing', options);
  // Off first: once a provider is registered, tracers already handed out follow it.
  const off = await measure(40, plan);
  const spanOffUs = await noProviderSpanUs();
  const sdk = registerSdk();
  let on: Spent;
  let spansPerCall: number;
  try {
    const before = await sdk.spansExported();
    on = await measure(41, plan);
    spansPerCall = (await sdk.spansExported()) - before;
    spansPerCall /= plan.warmup + plan.calls;
  } finally {
    await sdk.shutdown();
  }
  const calls = `${plan.calls} sequential authorize in process`;
  const offCostUs = spanOffUs * spansPerCall;
  return [
    {
      figure: 'tracing off: what one span adds with no provider registered (a non-recording span)',
      measured: `${fixed(spanOffUs, 2)} µs/span, ${fixed(offCostUs, 1)} µs per authorize (${fixed((100 * offCostUs) / off.cpuPerCallUs, 2)}% of its CPU)`,
      command,
    },
    {
      figure: `${calls}: tracing off (@opentelemetry/api installed, no provider)`,
      measured: `${fixed(off.perCallUs, 0)} µs/call, CPU ${fixed(off.cpuPerCallUs, 0)} µs`,
      command,
    },
    {
      figure: `${calls}: tracing on (SDK: batch spans, metrics, AsyncLocalStorage context)`,
      measured: `${fixed(on.perCallUs, 0)} µs/call, CPU ${fixed(on.cpuPerCallUs, 0)} µs`,
      baseline: `${fixed(off.perCallUs, 0)} µs/call, CPU ${fixed(off.cpuPerCallUs, 0)} µs off`,
      ratio: `${fixed(on.cpuPerCallUs / off.cpuPerCallUs)} (CPU)`,
      command,
    },
    {
      figure: 'authorize: spans per call with tracing on (client, token, server, store, credit)',
      measured: fixed(spansPerCall, 1),
      command,
    },
  ];
}

export const tracing: Figure = {
  name: 'tracing',
  title: 'Tracing cost: authorize in one process (client, service, memory store), OpenTelemetry off vs on',
  run,
};
