/**
 * How `baton serve` decides to load OpenTelemetry's SDK (server/cli/telemetry-sdk.ts) and reads
 * its settings: only when OTEL_* asks for traces or BATON_METRICS_PORT is set, with a message
 * naming the packages to install when they are missing.
 */
import { expect } from 'chai';
import { configFromEnvironment } from '../../server/cli/config.js';
import { serveCommand } from '../../server/cli/serve-command.js';
import { SDK_PACKAGES, startTelemetrySdk, tracesAsked } from '../../server/cli/telemetry-sdk.js';
import { ConfigurationError } from '../../server/engine/index.js';

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
    expect(configFromEnvironment({ BATON_METRICS_PORT: '9464', HOST: '0.0.0.0' }).telemetry).to.deep.equal({
      traces: false,
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
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
