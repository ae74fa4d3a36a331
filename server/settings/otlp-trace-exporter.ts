/**
 * The span exporter `baton serve` gives the SDK when OTEL_* asks for what the SDK would make
 * itself: one OTLP exporter over HTTP with protobuf (the default). It is the SDK's own exporter,
 * built from the same variables by the same code (`@opentelemetry/otlp-exporter-base`: endpoint,
 * headers, timeout, compression, retries, TLS), with one part replaced: the encoder, Baton's
 * (telemetry/otlp-span-encoder.ts), which writes the same bytes for a third of the CPU.
 *
 * Anything else (`http/json`, `grpc`, `console`, several exporters) is left to the SDK, and so is
 * everything when the two packages cannot be loaded: the encoder is a saving, never a condition.
 */
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { OtlpSpanEncoder, type EncodableSpan } from '../telemetry/otlp-span-encoder.js';
import type { Importer } from './telemetry-sdk.js';

/** Whether OTEL_* asks for exactly one OTLP exporter over HTTP with protobuf (trimmed and deduplicated as the SDK reads them). */
export function protobufOtlpAsked(env: NodeJS.ProcessEnv): boolean {
  const names = new Set(
    (env.OTEL_TRACES_EXPORTER ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  if (names.size > 1 || (names.size === 1 && !names.has('otlp'))) return false;
  const protocol =
    (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim() || 'http/protobuf';
  return protocol === 'http/protobuf';
}

type ExporterBase = typeof import('@opentelemetry/otlp-exporter-base');
type NodeHttp = typeof import('@opentelemetry/otlp-exporter-base/node-http');
type Transformer = typeof import('@opentelemetry/otlp-transformer');

/**
 * The exporter, or undefined when OTEL_* asks for another, or when the SDK's OTLP packages
 * (installed with `@opentelemetry/sdk-node`) cannot be loaded.
 */
export async function protobufOtlpExporter(
  env: NodeJS.ProcessEnv,
  importer: Importer,
): Promise<SpanExporter | undefined> {
  if (!protobufOtlpAsked(env)) return undefined;
  let base: ExporterBase, http: NodeHttp, transformer: Transformer;
  try {
    [base, http, transformer] = (await Promise.all([
      importer('@opentelemetry/otlp-exporter-base'),
      importer('@opentelemetry/otlp-exporter-base/node-http'),
      importer('@opentelemetry/otlp-transformer'),
    ])) as [ExporterBase, NodeHttp, Transformer];
  } catch {
    return undefined;
  }
  const encoder = new OtlpSpanEncoder();
  const serializer: import('@opentelemetry/otlp-transformer').ISerializer<
    Parameters<SpanExporter['export']>[0],
    import('@opentelemetry/otlp-transformer').IExportTraceServiceResponse
  > = {
    serializeRequest: (spans) => encoder.encode(spans as unknown as readonly EncodableSpan[]),
    // The collector's answer (partial success) is read as the SDK's exporter reads it.
    deserializeResponse: (bytes) => transformer.ProtobufTraceSerializer.deserializeResponse(bytes),
  };
  // As the SDK's OTLPTraceExporter (exporter-trace-otlp-proto) builds itself, with no options.
  const options = http.convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', {
    'Content-Type': 'application/x-protobuf',
  });
  const delegate = http.createOtlpHttpExportDelegate(
    options,
    serializer,
    'otlp_http_span_exporter',
    transformer.TraceExporterMetricsHelper,
    undefined,
  );
  return new base.OTLPExporterBase(delegate) as SpanExporter;
}
