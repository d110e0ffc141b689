// Telemetry of the @fin SDKs: OpenTelemetry spans and metrics when the host installed @opentelemetry/api.
export {
  createInstrumentation,
  type Instrumentation,
  type InstrumentSpec,
  noopSpan,
  type RecordMetric,
  type SpanHandle,
  type SpanStart,
  type TelemetryAttributes,
} from './instrumentation.js';
