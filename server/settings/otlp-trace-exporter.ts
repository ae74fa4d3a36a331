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
import { ConfigurationError } from '../engine/index.js';
import type { Importer } from './telemetry-sdk.js';
import { onlyOtlpExporter, otlpProtocol } from './otel-exporter-env.js';

/** Whether OTEL_* asks for exactly one OTLP exporter over HTTP with protobuf (trimmed and deduplicated as the SDK reads them). */
export function protobufOtlpAsked(env: NodeJS.ProcessEnv): boolean {
  return onlyOtlpExporter(env.OTEL_TRACES_EXPORTER) && otlpProtocol(env, 'TRACES') === 'http/protobuf';
}

type ExporterBase = typeof import('@opentelemetry/otlp-exporter-base');
type NodeHttp = typeof import('@opentelemetry/otlp-exporter-base/node-http');
type Transformer = typeof import('@opentelemetry/otlp-transformer');
type Modules = [ExporterBase, NodeHttp, Transformer];

const OTLP_PACKAGES = [
  '@opentelemetry/otlp-exporter-base',
  '@opentelemetry/otlp-exporter-base/node-http',
  '@opentelemetry/otlp-transformer',
];

/**
 * What the SDK's `OTLPTraceExporter` (exporter-trace-otlp-proto) takes: `url`, `headers`,
 * `timeoutMillis`, `compression`, … Unset, each comes from OTEL_* as the SDK's would.
 */
export type OtlpTraceExporterConfig = Record<string, unknown>;

/**
 * What an SDK span exporter is, without naming the SDK's types: `TracerProvider`'s span
 * processors and NodeSDK's `traceExporter` take it.
 */
export interface OtlpTraceExporter {
  export(spans: never[], resultCallback: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}

/**
 * The exporter, or undefined when OTEL_* asks for another, or when the SDK's OTLP packages
 * (installed with `@opentelemetry/sdk-node`) cannot be loaded.
 */
export async function protobufOtlpExporter(
  env: NodeJS.ProcessEnv,
  importer: Importer,
): Promise<OtlpTraceExporter | undefined> {
  if (!protobufOtlpAsked(env)) return undefined;
  let modules: Modules;
  try {
    modules = (await Promise.all(OTLP_PACKAGES.map((name) => importer(name)))) as Modules;
  } catch {
    return undefined;
  }
  return buildExporter(modules, {});
}

/**
 * For an application that starts its own SDK: the SDK's OTLP/HTTP protobuf span exporter, with
 * Baton's encoder in it (`new NodeSDK({ traceExporter: await otlpTraceExporter() })`). The same
 * options as the SDK's, the same bytes on the wire. It needs `@opentelemetry/otlp-exporter-base`
 * and `@opentelemetry/otlp-transformer`, which `@opentelemetry/sdk-node` installs.
 */
export async function otlpTraceExporter(config: OtlpTraceExporterConfig = {}): Promise<OtlpTraceExporter> {
  const modules: unknown[] = [];
  for (const name of OTLP_PACKAGES) {
    try {
      modules.push(await import(name));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
      throw new ConfigurationError(
        `otlpTraceExporter() needs ${name.replace('/node-http', '')}, which is not installed. It comes with the SDK: npm install @opentelemetry/sdk-node@^0.301`,
      );
    }
  }
  return buildExporter(modules as Modules, config);
}

function buildExporter([base, http, transformer]: Modules, config: OtlpTraceExporterConfig): OtlpTraceExporter {
  const encoder = new OtlpSpanEncoder();
  const serializer: import('@opentelemetry/otlp-transformer').ISerializer<
    Parameters<SpanExporter['export']>[0],
    import('@opentelemetry/otlp-transformer').IExportTraceServiceResponse
  > = {
    serializeRequest: (spans) => encoder.encode(spans as unknown as readonly EncodableSpan[]),
    // The collector's answer (partial success) is read as the SDK's exporter reads it.
    deserializeResponse: (bytes) => transformer.ProtobufTraceSerializer.deserializeResponse(bytes),
  };
  // As the SDK's OTLPTraceExporter (exporter-trace-otlp-proto) builds itself.
  const options = http.convertLegacyHttpOptions(config as never, 'TRACES', 'v1/traces', {
    'Content-Type': 'application/x-protobuf',
  });
  const delegate = http.createOtlpHttpExportDelegate(
    options,
    serializer,
    'otlp_http_span_exporter',
    transformer.TraceExporterMetricsHelper,
    undefined,
  );
  const exporter: SpanExporter = new base.OTLPExporterBase(delegate);
  return exporter as unknown as OtlpTraceExporter;
}
