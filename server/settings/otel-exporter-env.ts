/**
 * How the OTEL_* variables that choose an exporter read, as `@opentelemetry/sdk-node` reads them,
 * for the exporters `baton serve` builds itself (otlp-trace-exporter.ts, otlp-metric-reader.ts):
 * a list comma-separated, trimmed and deduplicated, `otlp` when empty; a protocol from the signal's
 * own variable, else the general one, else `http/protobuf`.
 */

/** Whether an OTEL_<SIGNAL>_EXPORTER list asks for one OTLP exporter and nothing else (empty: the default, otlp). */
export function onlyOtlpExporter(list: string | undefined): boolean {
  const names = new Set(
    (list ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  return names.size === 0 || (names.size === 1 && names.has('otlp'));
}

/** The OTLP protocol a signal's exporter uses. */
export function otlpProtocol(env: NodeJS.ProcessEnv, signal: 'TRACES' | 'METRICS'): string {
  return (env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim() || 'http/protobuf';
}
