/**
 * `serve()` with traces on and metrics left at OTEL_METRICS_EXPORTER's default (otlp) sends Baton's
 * metrics through its own AggregatingMeter to the OTLP receiver, over HTTP with protobuf, as the
 * SDK's default reader would (server/settings/otlp-metric-reader.ts); with another temporality it
 * leaves them to the SDK's instruments, and they still arrive. In a process of its own: the SDK
 * registers itself globally.
 */
import { expect } from 'chai';
import { fixtureResult } from '../helpers/fixture-process.js';
import { OtlpReceiver } from '../helpers/otlp-receiver.js';

describe('serve() with metrics over OTLP', function () {
  this.timeout(60_000);
  let receiver: OtlpReceiver;
  let url: string;

  beforeEach(async () => {
    receiver = new OtlpReceiver();
    url = await receiver.start();
  });
  afterEach(() => receiver.stop());

  /** The metrics posted, as text: protobuf holds names as plain bytes. */
  const exported = () => Buffer.concat(receiver.posted.get('/v1/metrics') ?? []).toString('latin1');
  const serve = (env: NodeJS.ProcessEnv) =>
    fixtureResult<Record<string, number>>('test/fixtures/serve-otlp-metrics.ts', [], env);

  it("sends Baton's metrics from its own meter to the receiver", async () => {
    const held = await serve({ OTEL_EXPORTER_OTLP_ENDPOINT: url });
    expect(held).to.include({ 'baton.flow.started': 1, 'baton.round.duration': 1 });
    // The flush on shutdown posted them.
    expect(exported()).to.include('baton.flow.started').and.include('baton.round.duration');
    expect(receiver.posted.get('/v1/traces')?.length ?? 0).to.be.greaterThan(0);
  });

  it("leaves delta temporality to the SDK's instruments, which send the same metrics", async () => {
    const held = await serve({
      OTEL_EXPORTER_OTLP_ENDPOINT: url,
      OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE: 'delta',
    });
    expect(held).to.deep.equal({});
    expect(exported()).to.include('baton.flow.started').and.include('baton.round.duration');
  });
});
