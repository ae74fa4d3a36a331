/**
 * Log lines that name the span they were written in: `trace_id` and `span_id` (the field names
 * OpenTelemetry's log data model uses), read from the active context. A round runs inside its
 * span's context (round-trace.ts), so what the engine logs about a round lines up with its trace.
 * With no SDK registered there is no active span and a line is written as it was.
 */
import { trace } from '@opentelemetry/api';

/** The logger seam as the engine defines it (engine/logger.ts), restated so telemetry imports no engine. */
export interface LoggerLike {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

function withIds(fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const span = trace.getActiveSpan();
  if (!span) return fields;
  const { traceId, spanId } = span.spanContext();
  return { ...fields, trace_id: traceId, span_id: spanId };
}

export function tracedLogger<L extends LoggerLike>(logger: L): LoggerLike {
  return {
    info: (event, fields) => logger.info(event, withIds(fields)),
    warn: (event, fields) => logger.warn(event, withIds(fields)),
    error: (event, fields) => logger.error(event, withIds(fields)),
  };
}
