/**
 * `telemetry: { off: true }` records nothing even with an SDK at hand: the in-process server of the
 * docs and the test kit runs on it, and its example runs must never reach an operator's traces or
 * request counts.
 */
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { expect } from 'chai';
import { Telemetry } from '../../server/telemetry/index.js';

class ManualReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

describe('telemetry off', () => {
  const providers = () => ({
    tracerProvider: new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })],
    }),
    meterProvider: new MeterProvider({ readers: [new ManualReader()] }),
  });

  it('given real providers, records', () => {
    const telemetry = new Telemetry(providers());
    expect(telemetry.active).to.equal(true);
    expect(telemetry.metrics).to.not.equal(undefined);
  });

  it('off, builds no tracer and no metrics with the same providers', () => {
    const telemetry = new Telemetry({ ...providers(), off: true });
    expect(telemetry.tracer()).to.equal(undefined);
    expect(telemetry.metrics).to.equal(undefined);
    expect(telemetry.active).to.equal(false);
  });
});
