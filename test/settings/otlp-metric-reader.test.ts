/**
 * Metrics over OTLP in `baton serve` (server/settings/otlp-metric-reader.ts): the reader the SDK
 * would build from OTEL_*, with Baton's AggregatingMeter as its producer, and only when its data
 * is what that reader would send; anything else is left to the SDK.
 */
import { expect } from 'chai';
import { exportTiming, otlpMetricsPackage } from '../../server/settings/otlp-metric-reader.js';
import { startTelemetrySdk } from '../../server/settings/telemetry-sdk.js';
import { AggregatingMeter } from '../../server/telemetry/index.js';

/** `@opentelemetry/sdk-node` as these tests load it: the readers it is given, and nothing started. */
function fakeSdk() {
  const given: unknown[][] = [];
  return {
    given,
    module: {
      NodeSDK: class {
        constructor(options: { metricReaders?: unknown[] }) {
          given.push(options.metricReaders ?? ['(from OTEL_*)']);
        }
        start() {}
        async shutdown() {}
      },
    },
  };
}

class FakeReader {
  constructor(readonly options: { exporter: unknown; metricProducers: unknown[]; exportIntervalMillis: number }) {}
}
class FakeExporter {
  constructor() {}
}

describe('metrics over OTLP in baton serve', () => {
  it('takes the reader over only for one OTLP exporter, cumulative, with explicit buckets', () => {
    const proto = '@opentelemetry/exporter-metrics-otlp-proto';
    expect(otlpMetricsPackage({})).to.equal(proto);
    expect(otlpMetricsPackage({ OTEL_METRICS_EXPORTER: ' otlp ' })).to.equal(proto);
    expect(otlpMetricsPackage({ OTEL_METRICS_EXPORTER: 'otlp,otlp' })).to.equal(proto);
    expect(otlpMetricsPackage({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).to.equal(
      '@opentelemetry/exporter-metrics-otlp-grpc',
    );
    expect(
      otlpMetricsPackage({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json' }),
    ).to.equal('@opentelemetry/exporter-metrics-otlp-http');
    expect(otlpMetricsPackage({ OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'Cumulative' })).to.equal(proto);
    for (const env of [
      { OTEL_METRICS_EXPORTER: 'none' },
      { OTEL_METRICS_EXPORTER: 'console' },
      { OTEL_METRICS_EXPORTER: 'prometheus' },
      { OTEL_METRICS_EXPORTER: 'otlp,console' },
      { OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/thrift' },
      { OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'constructor' },
      { OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'delta' },
      { OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'lowmemory' },
      { OTEL_EXPORTER_METRICS_DEFAULT_HISTOGRAM_AGGREGATION: 'base2_exponential_bucket_histogram' },
    ]) {
      expect(otlpMetricsPackage(env), JSON.stringify(env)).to.equal(undefined);
    }
  });

  it('reads the export interval and timeout as the SDK does: defaults, invalid values ignored, the timeout at most the interval', () => {
    expect(exportTiming({})).to.deep.equal({ exportIntervalMillis: 60_000, exportTimeoutMillis: 30_000 });
    expect(exportTiming({ OTEL_METRIC_EXPORT_INTERVAL: '10000' })).to.deep.equal({
      exportIntervalMillis: 10_000,
      exportTimeoutMillis: 10_000,
    });
    expect(exportTiming({ OTEL_METRIC_EXPORT_INTERVAL: '5000', OTEL_METRIC_EXPORT_TIMEOUT: '2000' })).to.deep.equal({
      exportIntervalMillis: 5000,
      exportTimeoutMillis: 2000,
    });
    for (const bad of ['0', '-5', 'soon', ' ']) {
      expect(exportTiming({ OTEL_METRIC_EXPORT_INTERVAL: bad, OTEL_METRIC_EXPORT_TIMEOUT: bad }), bad).to.deep.equal({
        exportIntervalMillis: 60_000,
        exportTimeoutMillis: 30_000,
      });
    }
  });

  it("gives the SDK Baton's reader, its meter the producer, and the server that meter", async () => {
    const sdk = fakeSdk();
    const importer = async (name: string) =>
      ({
        '@opentelemetry/sdk-node': sdk.module,
        '@opentelemetry/sdk-metrics': { PeriodicExportingMetricReader: FakeReader },
        '@opentelemetry/exporter-metrics-otlp-proto': { OTLPMetricExporter: FakeExporter },
      })[name];
    const started = await startTelemetrySdk(
      { traces: true },
      // Spans to the console: the trace exporter's packages are not what this test plays.
      { OTEL_TRACES_EXPORTER: 'console', OTEL_METRIC_EXPORT_INTERVAL: '1000' },
      importer,
    );
    expect(started?.meter).to.be.instanceOf(AggregatingMeter);
    const [readers] = sdk.given;
    expect(readers).to.have.length(1);
    const reader = readers![0] as FakeReader;
    expect(reader).to.be.instanceOf(FakeReader);
    expect(reader.options.exporter).to.be.instanceOf(FakeExporter);
    expect(reader.options.metricProducers).to.deep.equal([started!.meter]);
    expect(reader.options.exportIntervalMillis).to.equal(1000);
  });

  it('leaves the readers to the SDK, and Baton on its instruments, for other exporters or missing packages', async () => {
    const cases: Array<{ env: NodeJS.ProcessEnv; packages: boolean }> = [
      { env: { OTEL_METRICS_EXPORTER: 'console' }, packages: true },
      { env: { OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'delta' }, packages: true },
      { env: {}, packages: false },
    ];
    for (const { env, packages } of cases) {
      const sdk = fakeSdk();
      const importer = async (name: string) => {
        if (name === '@opentelemetry/sdk-node') return sdk.module;
        if (!packages)
          throw Object.assign(new Error(`Cannot find package '${name}'`), { code: 'ERR_MODULE_NOT_FOUND' });
        return {
          '@opentelemetry/sdk-metrics': { PeriodicExportingMetricReader: FakeReader },
          '@opentelemetry/exporter-metrics-otlp-proto': { OTLPMetricExporter: FakeExporter },
        }[name];
      };
      const started = await startTelemetrySdk({ traces: true }, { OTEL_TRACES_EXPORTER: 'console', ...env }, importer);
      expect(started, JSON.stringify(env)).to.not.have.property('meter');
      expect(sdk.given, JSON.stringify(env)).to.deep.equal([['(from OTEL_*)']]);
    }
  });
});
