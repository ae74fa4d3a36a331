/**
 * How `baton serve` decides to load OpenTelemetry's SDK (server/settings/telemetry-sdk.ts) and reads
 * its settings: only when OTEL_* asks for traces or BATON_METRICS_PORT is set, with a message
 * naming the packages to install when they are missing.
 */
import { expect } from 'chai';
import { configFromEnvironment } from '../../server/settings/environment-config.js';
import { serveCommand } from '../../server/cli/serve-command.js';
import {
  metricsExposedWarning,
  SDK_PACKAGES,
  startTelemetrySdk,
  tracesAsked,
} from '../../server/settings/telemetry-sdk.js';
import { ConfigurationError } from '../../server/engine/index.js';
import { AggregatingMeter } from '../../server/telemetry/index.js';

/** `@opentelemetry/sdk-node` as the tests load it: an SDK that starts and stops, and does nothing. */
const FAKE_SDK_NODE = {
  NodeSDK: class {
    start() {}
    async shutdown() {}
  },
};

describe('telemetry settings of baton serve', () => {
  it('asks for traces when an OTLP endpoint or a traces exporter is named', () => {
    expect(tracesAsked({})).to.equal(false);
    expect(tracesAsked({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).to.equal(true);
    expect(tracesAsked({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).to.equal(true);
    expect(tracesAsked({ OTEL_TRACES_EXPORTER: 'zipkin' })).to.equal(true);
    expect(tracesAsked({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).to.equal(false);
    expect(tracesAsked({ OTEL_SERVICE_NAME: 'x' })).to.equal(false);
  });

  it('reads BATON_METRICS_PORT and its host, and refuses a port it cannot use', () => {
    expect(configFromEnvironment({}).telemetry).to.deep.equal({ traces: false });
    // HOST opens the MCP port only: the unauthenticated scrape stays on loopback.
    expect(configFromEnvironment({ BATON_METRICS_PORT: '9464', HOST: '0.0.0.0' }).telemetry).to.deep.equal({
      traces: false,
      metricsPort: 9464,
      metricsHost: '127.0.0.1',
    });
    expect(
      configFromEnvironment({ BATON_METRICS_PORT: '9464', BATON_METRICS_HOST: '10.0.0.5' }).telemetry.metricsHost,
    ).to.equal('10.0.0.5');
    for (const bad of ['abc', '0', '70000', '3000']) {
      expect(() => configFromEnvironment({ BATON_METRICS_PORT: bad }), bad).to.throw(
        ConfigurationError,
        'BATON_METRICS_PORT',
      );
    }
  });

  it('loads nothing when nothing asks for it', async () => {
    const asked: string[] = [];
    const sdk = await startTelemetrySdk({ traces: false }, {}, async (name) => {
      asked.push(name);
      return {};
    });
    expect(sdk).to.equal(undefined);
    expect(asked).to.deep.equal([]);
  });

  it('serves metrics on loopback unless BATON_METRICS_HOST says otherwise, and warns when it does', async () => {
    const listened: string[] = [];
    const fakes: Record<string, unknown> = {
      '@opentelemetry/sdk-node': FAKE_SDK_NODE,
      '@opentelemetry/exporter-prometheus': {
        PrometheusExporter: class {
          readonly host: string;
          constructor(options: { host: string }) {
            this.host = options.host;
          }
          async startServer() {
            listened.push(this.host);
          }
        },
      },
    };
    const importer = async (name: string) => fakes[name];
    const start = async (env: NodeJS.ProcessEnv) => {
      const warnings: string[] = [];
      const settings = configFromEnvironment({ BATON_METRICS_PORT: '9464', ...env }).telemetry;
      const sdk = await startTelemetrySdk(settings, {}, importer, (event) => warnings.push(event));
      return { url: sdk?.metricsUrl, warnings };
    };
    expect(await start({ HOST: '0.0.0.0' })).to.deep.equal({ url: 'http://127.0.0.1:9464/metrics', warnings: [] });
    expect(await start({ BATON_METRICS_HOST: '::1' })).to.deep.equal({
      url: 'http://[::1]:9464/metrics',
      warnings: [],
    });
    expect(await start({ BATON_METRICS_HOST: '0.0.0.0' })).to.deep.equal({
      url: 'http://0.0.0.0:9464/metrics',
      warnings: ['metrics_exposed'],
    });
    expect((await start({ BATON_METRICS_HOST: '10.0.0.5' })).warnings).to.deep.equal(['metrics_exposed']);
    expect(listened).to.deep.equal(['127.0.0.1', '::1', '0.0.0.0', '10.0.0.5']);
  });

  it("gives the Prometheus reader Baton's own aggregated metrics, and the server the meter that holds them", async () => {
    const given: unknown[] = [];
    const importer = async (name: string) =>
      ({
        '@opentelemetry/sdk-node': FAKE_SDK_NODE,
        '@opentelemetry/exporter-prometheus': {
          PrometheusExporter: class {
            constructor(options: { metricProducers?: unknown[] }) {
              given.push(...(options.metricProducers ?? []));
            }
            async startServer() {}
          },
        },
      })[name];
    const withMetrics = await startTelemetrySdk({ traces: false, metricsPort: 9464 }, {}, importer);
    expect(withMetrics?.meter).to.be.instanceOf(AggregatingMeter);
    expect(given).to.deep.equal([withMetrics!.meter]);
    const tracesOnly = await startTelemetrySdk({ traces: true }, { OTEL_TRACES_EXPORTER: 'console' }, importer);
    expect(tracesOnly).to.not.have.property('meter');
  });

  it('names the exposure in its warning banner only beyond loopback', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) {
      expect(metricsExposedWarning(host, 9464), host).to.equal(undefined);
    }
    expect(metricsExposedWarning('0.0.0.0', 9464)).to.include('0.0.0.0:9464');
  });

  it('names the packages to install when the SDK is missing', async () => {
    const missing = async (name: string) => {
      throw Object.assign(new Error(`Cannot find package '${name}'`), { code: 'ERR_MODULE_NOT_FOUND' });
    };
    for (const settings of [{ traces: true }, { traces: false, metricsPort: 9464 }]) {
      const error = await startTelemetrySdk(settings, {}, missing).catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(ConfigurationError);
      expect((error as Error).message)
        .to.include('@opentelemetry/sdk-node is not installed')
        .and.include(SDK_PACKAGES);
    }
  });

  it('refuses BATON_METRICS_PORT with --workers before starting anything', async () => {
    const saved = process.env.BATON_METRICS_PORT;
    process.env.BATON_METRICS_PORT = '9464';
    try {
      const error = await serveCommand({ workers: '2' }).catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(ConfigurationError);
      expect((error as Error).message).to.include('BATON_METRICS_PORT cannot be used with --workers');
    } finally {
      if (saved === undefined) delete process.env.BATON_METRICS_PORT;
      else process.env.BATON_METRICS_PORT = saved;
    }
  });
});
