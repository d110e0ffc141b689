// Whether the host registered anything with OpenTelemetry: with nothing, every span and metric would go nowhere.
import type { OpenTelemetry } from './open-telemetry.js';

/**
 * True when the API is installed but no tracer provider, no meter provider and no propagator is registered
 * (the API arrived as a transitive dependency): spans would not record, metrics not aggregate, no trace
 * would be passed on. Read once, when a client or service is created (the documented moment to have
 * registered the providers). Anything this API version does not let us read counts as registered.
 */
export function nothingRegistered(api: OpenTelemetry, scope: { name: string; version: string }): boolean {
  const tracers = api.trace.getTracerProvider();
  const noTracer =
    tracers instanceof api.ProxyTracerProvider &&
    typeof tracers.getDelegateTracer === 'function' &&
    tracers.getDelegateTracer(scope.name, scope.version) === undefined;
  if (!noTracer || typeof api.createNoopMeter !== 'function') return false;
  const noMeter =
    api.metrics.getMeter(scope.name, scope.version).constructor === api.createNoopMeter().constructor;
  return noMeter && api.propagation.fields().length === 0;
}
