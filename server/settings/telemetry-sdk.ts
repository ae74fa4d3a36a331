/**
 * `baton serve` (and `serve()`) bring an OpenTelemetry SDK when asked to: traces when OTEL_*
 * names an exporter (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or
 * OTEL_TRACES_EXPORTER other than `none`), metrics for Prometheus on BATON_METRICS_PORT. Baton
 * itself depends on `@opentelemetry/api` only: the SDK (`@opentelemetry/sdk-node`, which reads
 * every standard OTEL_* variable) and the Prometheus exporter are optional peer dependencies,
 * loaded here only when a setting asks for them, with a message saying what to install when they
 * are missing (docs/observability.md, "Turning it on").
 */
import { ConfigurationError } from '../engine/index.js';
import { isLoopbackHost } from '../http/index.js';
import { AggregatingMeter, INSTRUMENTATION_NAME } from '../telemetry/index.js';
import { BATON_VERSION } from '../version.js';
import { protobufOtlpExporter } from './otlp-trace-exporter.js';
import { otlpMetricReader, type OtlpMetricReader } from './otlp-metric-reader.js';

export interface TelemetrySettings {
  /** Spans go to the exporter OTEL_* names. */
  traces: boolean;
  /** Metrics are served for Prometheus at http://<metricsHost>:<metricsPort>/metrics. */
  metricsPort?: number;
  /** Default 127.0.0.1: the scrape has no authentication, so only BATON_METRICS_HOST widens it (never HOST). */
  metricsHost?: string;
}

/** Says a start-up warning (serve.ts: a banner on stderr, or one `warn` event to the caller's logger). */
export type Warn = (event: string, banner: string) => void;

/** The warning for a metrics listener beyond loopback, or undefined when it stays on loopback. */
export function metricsExposedWarning(host: string, port: number): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  return [
    '',
    '################################################################################',
    `#  WARNING: metrics are served on ${host}:${port} (BATON_METRICS_HOST).`,
    '#  The scrape has no authentication: anyone who can reach this address reads',
    "#  every tool's call counts and durations. Keep it on a private network, or",
    '#  unset BATON_METRICS_HOST to serve on 127.0.0.1. See docs/security.md.',
    '################################################################################',
    '',
  ].join('\n');
}

export interface TelemetrySdk {
  /** The Prometheus scrape URL, when BATON_METRICS_PORT is set. */
  metricsUrl?: string;
  /**
   * With BATON_METRICS_PORT, or metrics over OTLP as the SDK's default reader would send them
   * (otlp-metric-reader.ts): the meter Baton's instruments are to be made with (the server's
   * `telemetry.meter`). Baton aggregates its own metrics, and the reader collects them from it as a
   * MetricProducer, without the SDK's per-point attribute hashing (aggregating-meter.ts).
   */
  meter?: AggregatingMeter;
  /** Flushes what is buffered (spans) and stops the exporters. */
  shutdown(): Promise<void>;
}

export const SDK_PACKAGES = '@opentelemetry/sdk-node@^0.301 @opentelemetry/exporter-prometheus@^0.301';

/** Whether the standard variables ask for traces. */
export function tracesAsked(env: NodeJS.ProcessEnv): boolean {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter) return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** Loads a package by name: `import()`, injected so a test can play a missing one. */
export type Importer = (name: string) => Promise<unknown>;
const importPackage: Importer = (name) => import(name);

async function load<T>(importer: Importer, name: string, why: string): Promise<T> {
  try {
    return (await importer(name)) as T;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new ConfigurationError(
      `${why}, but ${name} is not installed. Baton depends on @opentelemetry/api only; install the SDK next to it: npm install ${SDK_PACKAGES}`,
    );
  }
}

/**
 * Starts and registers the SDK globally when the settings ask for it (before the server is
 * built: the metrics API binds instruments to the provider registered when they are made).
 * Resolves undefined when nothing is asked, without loading anything.
 */
export async function startTelemetrySdk(
  settings: TelemetrySettings,
  env: NodeJS.ProcessEnv = process.env,
  importer: Importer = importPackage,
  warn: Warn = (_event, banner) => void process.stderr.write(`${banner}\n`),
): Promise<TelemetrySdk | undefined> {
  if (!settings.traces && settings.metricsPort === undefined) return undefined;
  const why = settings.traces ? 'OTEL_* asks for traces' : 'BATON_METRICS_PORT is set';
  const { NodeSDK } = await load<typeof import('@opentelemetry/sdk-node')>(importer, '@opentelemetry/sdk-node', why);
  let prometheus: import('@opentelemetry/exporter-prometheus').PrometheusExporter | undefined;
  let metricsUrl: string | undefined;
  let meter: AggregatingMeter | undefined;
  if (settings.metricsPort !== undefined) {
    const { PrometheusExporter } = await load<typeof import('@opentelemetry/exporter-prometheus')>(
      importer,
      '@opentelemetry/exporter-prometheus',
      'BATON_METRICS_PORT is set',
    );
    const host = settings.metricsHost ?? '127.0.0.1';
    meter = new AggregatingMeter(INSTRUMENTATION_NAME, BATON_VERSION);
    prometheus = new PrometheusExporter({
      host,
      port: settings.metricsPort,
      preventServerStart: true,
      // The reader answers with its own resource: the one the producer's collection names is not read.
      metricProducers: [meter as unknown as import('@opentelemetry/sdk-metrics').MetricProducer],
    });
    try {
      await prometheus.startServer();
    } catch (error) {
      throw new ConfigurationError(
        `BATON_METRICS_PORT=${settings.metricsPort}: cannot listen on ${host}:${settings.metricsPort} (${(error as Error).message}). Choose a free port.`,
      );
    }
    metricsUrl = `http://${host.includes(':') ? `[${host}]` : host}:${settings.metricsPort}/metrics`;
    const exposed = metricsExposedWarning(host, settings.metricsPort);
    if (exposed) warn('metrics_exposed', exposed);
  }
  // The default OTLP exporter, with Baton's encoder in it; undefined leaves OTEL_* to the SDK.
  const traceExporter = settings.traces ? await protobufOtlpExporter(env, importer) : undefined;
  // With traces, metrics go where OTEL_METRICS_EXPORTER says (default otlp): Baton's reader when it can be.
  let otlpReader: OtlpMetricReader | undefined;
  if (!prometheus && settings.traces) {
    const candidate = new AggregatingMeter(INSTRUMENTATION_NAME, BATON_VERSION);
    otlpReader = await otlpMetricReader(env, importer, candidate);
    if (otlpReader) meter = candidate;
  }
  const named = Boolean(env.OTEL_SERVICE_NAME) || /(^|,)\s*service\.name=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  const sdk = new NodeSDK({
    ...(named ? {} : { serviceName: 'baton' }),
    // Traces only when OTEL_* asks: otherwise the SDK's default would post spans to localhost.
    ...(settings.traces ? (traceExporter ? { traceExporter } : {}) : { spanProcessors: [] }),
    // Metrics for Prometheus when asked; else as OTEL_METRICS_EXPORTER says (default otlp) with traces.
    ...(prometheus
      ? { metricReaders: [prometheus] }
      : otlpReader
        ? { metricReaders: [otlpReader as unknown as import('@opentelemetry/sdk-metrics').MetricReader] }
        : settings.traces
          ? {}
          : { metricReaders: [] }),
    // Baton logs JSON lines to stderr, with trace ids (docs/observability.md, "Logs").
    logRecordProcessors: [],
  });
  sdk.start();
  return { ...(metricsUrl ? { metricsUrl } : {}), ...(meter ? { meter } : {}), shutdown: () => sdk.shutdown() };
}
