/**
 * Traces, metrics and log correlation through the OpenTelemetry API (docs/observability.md).
 * Imports nothing of Baton's: the engine, the protocol and the transports call in.
 */
export { Telemetry, INSTRUMENTATION_NAME, type TelemetryOptions } from './telemetry.js';
export { AggregatingMeter, type BatonMeter, type AggregatedCollection } from './aggregating-meter.js';
export { BatonMetrics, type FlowEnd, type RefusalReason, type GaugeSource } from './baton-metrics.js';
export { RequestTelemetry, type RequestStart, type RequestEnd } from './request-telemetry.js';
export { RoundTrace, type RoundStart, type RoundEnd } from './round-trace.js';
export { extractContext, encodeFlowContext, decodeFlowContext, type FlowTraceContext } from './trace-context.js';
export { tracedLogger, type LoggerLike } from './traced-logger.js';
export { ATTR } from './attribute-names.js';
export { TargetLabels, UNKNOWN_TARGET, MAX_TARGET_NAMES, type TargetCatalogue } from './target-labels.js';
export { requestIdForTelemetry, MAX_REQUEST_ID_LENGTH, SHORTENED_MARK } from './request-id.js';
