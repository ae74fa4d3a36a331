/**
 * The metric reader `baton serve` gives the SDK when OTEL_* asks for what the SDK would make itself:
 * one OTLP exporter (OTEL_METRICS_EXPORTER unset, or `otlp`) pushing cumulative data with the default
 * histograms. It is built as `@opentelemetry/sdk-node` builds it from the same variables (its
 * `getMetricReadersFromEnv`): the exporter package of OTEL_EXPORTER_OTLP_METRICS_PROTOCOL (or
 * OTEL_EXPORTER_OTLP_PROTOCOL, default `http/protobuf`), which reads its endpoint, headers, timeout
 * and compression itself, in a PeriodicExportingMetricReader every OTEL_METRIC_EXPORT_INTERVAL ms
 * (60 s), each export within OTEL_METRIC_EXPORT_TIMEOUT (30 s, at most the interval). One part is
 * added: Baton's AggregatingMeter as a producer of the reader, as with BATON_METRICS_PORT, so
 * Baton's own metrics skip the SDK's per-point attribute hashing (aggregating-meter.ts).
 *
 * Anything else is left to the SDK, with Baton's metrics on the SDK's instruments: several
 * exporters, `console` or `prometheus`, a protocol the SDK does not know, delta or low-memory
 * temporality or exponential histograms (the meter aggregates cumulatively, in explicit buckets,
 * and a producer's data is exported as it is), and packages that cannot be loaded. The reader is
 * a saving, never a condition.
 */
import type { AggregatingMeter } from '../telemetry/index.js';
import type { Importer } from './telemetry-sdk.js';
import { onlyOtlpExporter, otlpProtocol } from './otel-exporter-env.js';

/** The exporter package of each OTLP protocol the SDK knows (sdk-node's getOtlpMetricExporterFromEnv). */
const EXPORTER_PACKAGES = new Map([
  ['grpc', '@opentelemetry/exporter-metrics-otlp-grpc'],
  ['http/json', '@opentelemetry/exporter-metrics-otlp-http'],
  ['http/protobuf', '@opentelemetry/exporter-metrics-otlp-proto'],
]);

const DEFAULT_INTERVAL_MS = 60_000;
const DEFAULT_TIMEOUT_MS = 30_000;

/** The exporter package OTEL_* asks for, when the reader can be Baton's; else undefined. */
export function otlpMetricsPackage(env: NodeJS.ProcessEnv): string | undefined {
  if (!onlyOtlpExporter(env.OTEL_METRICS_EXPORTER)) return undefined;
  const temporality = env.OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE?.trim().toLowerCase();
  if (temporality && temporality !== 'cumulative') return undefined;
  const histograms = env.OTEL_EXPORTER_METRICS_DEFAULT_HISTOGRAM_AGGREGATION?.trim().toLowerCase();
  if (histograms && histograms !== 'explicit_bucket_histogram') return undefined;
  return EXPORTER_PACKAGES.get(otlpProtocol(env, 'METRICS'));
}

/** A positive number of ms from `name`, or undefined (unset or invalid: the SDK's default then). */
function positiveMs(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The interval and timeout of the periodic reader, as sdk-node reads them: the timeout clamped to the interval. */
export function exportTiming(env: NodeJS.ProcessEnv): { exportIntervalMillis: number; exportTimeoutMillis: number } {
  const exportIntervalMillis = positiveMs(env, 'OTEL_METRIC_EXPORT_INTERVAL') ?? DEFAULT_INTERVAL_MS;
  const timeout = positiveMs(env, 'OTEL_METRIC_EXPORT_TIMEOUT') ?? DEFAULT_TIMEOUT_MS;
  return { exportIntervalMillis, exportTimeoutMillis: Math.min(timeout, exportIntervalMillis) };
}

/** What an SDK metric reader is, to NodeSDK's `metricReaders`, without naming the SDK's types. */
export interface OtlpMetricReader {
  shutdown(): Promise<void>;
  forceFlush(): Promise<void>;
}

type SdkMetrics = typeof import('@opentelemetry/sdk-metrics');
interface ExporterPackage {
  OTLPMetricExporter: new () => import('@opentelemetry/sdk-metrics').PushMetricExporter;
}

/**
 * The periodic OTLP reader with `meter` as its producer, or undefined when OTEL_* asks for
 * something else or the packages (installed with `@opentelemetry/sdk-node`) cannot be loaded.
 */
export async function otlpMetricReader(
  env: NodeJS.ProcessEnv,
  importer: Importer,
  meter: AggregatingMeter,
): Promise<OtlpMetricReader | undefined> {
  const exporterPackage = otlpMetricsPackage(env);
  if (!exporterPackage) return undefined;
  let modules: [SdkMetrics | undefined, ExporterPackage | undefined];
  try {
    modules = (await Promise.all([importer('@opentelemetry/sdk-metrics'), importer(exporterPackage)])) as [
      SdkMetrics | undefined,
      ExporterPackage | undefined,
    ];
  } catch {
    return undefined;
  }
  const [metrics, exporter] = modules;
  const PeriodicExportingMetricReader = metrics?.PeriodicExportingMetricReader;
  const OTLPMetricExporter = exporter?.OTLPMetricExporter;
  if (typeof PeriodicExportingMetricReader !== 'function' || typeof OTLPMetricExporter !== 'function') return undefined;
  return new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter(),
    ...exportTiming(env),
    metricProducers: [meter as unknown as import('@opentelemetry/sdk-metrics').MetricProducer],
  });
}
