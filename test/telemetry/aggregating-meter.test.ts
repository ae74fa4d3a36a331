/**
 * Baton's metrics aggregated by Baton (server/telemetry/aggregating-meter.ts) are the SDK's: for
 * any sequence of a server's points, a metric reader given the AggregatingMeter as its producer
 * collects the same data as one reading the SDK's own instruments (every series, bucket, count,
 * sum, min and max; the times aside), and Prometheus's exporter writes the same scrape from both.
 */
import { metrics, type Meter } from '@opentelemetry/api';
import { PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { MeterProvider, MetricReader, type MetricProducer, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { expect } from 'chai';
import fc from 'fast-check';
import {
  AggregatingMeter,
  BatonMetrics,
  INSTRUMENTATION_NAME,
  TargetLabels,
  type FlowEnd,
  type RefusalReason,
} from '../../server/telemetry/index.js';

class CollectingReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

const methods = ['tools/call', 'prompts/get', 'resources/read', 'tools/list', '_OTHER'];
const names = ['release', 'ship-release', 'test://t/{id}', 'unknown'];
const errors = [undefined, 'tool_error', '-32602', '-32601', 'timeout'];
const outcomes = ['complete', 'input_required', 'failed', 'refused', 'task'];
const ends: FlowEnd[] = ['completed', 'declined', 'cancelled', 'failed'];
const reasons: RefusalReason[] = ['tampered', 'expired', 'replayed', 'in_use'];
const statuses = ['working', 'input_required', 'completed', 'cancelled', 'failed'];
/** Durations around the buckets' bounds (0.01 … 300 s), the bounds themselves included. */
const seconds = fc.oneof(
  fc.constantFrom(0, 0.01, 0.02, 0.05, 1, 300, 301),
  fc.double({ min: 0, max: 400, noNaN: true }),
);

/** One point a server records, applied to a BatonMetrics. */
const point = fc.oneof(
  fc
    .tuple(seconds, fc.constantFrom(...methods), fc.option(fc.constantFrom(...names), { nil: undefined }))
    .chain(([s, method, name]) =>
      fc.constantFrom(...errors).map((error) => (m: BatonMetrics) => m.request(s, method, name, error)),
    ),
  fc
    .tuple(
      seconds,
      fc.constantFrom<'request' | 'step'>('request', 'step'),
      fc.constantFrom(...methods),
      fc.constantFrom(...names),
      fc.constantFrom(...outcomes),
      fc.constantFrom(...errors),
    )
    .map(
      ([s, mode, method, name, outcome, error]) =>
        (m: BatonMetrics) =>
          m.round(s, mode, method, name, outcome, error),
    ),
  fc.tuple(fc.constantFrom(...methods), fc.constantFrom(...names)).map(
    ([method, name]) =>
      (m: BatonMetrics) =>
        m.flowStarted(method, name),
  ),
  fc.tuple(fc.constantFrom(...methods), fc.constantFrom(...names), fc.constantFrom(...ends)).map(
    ([method, name, how]) =>
      (m: BatonMetrics) =>
        m.flowEnded(method, name, how),
  ),
  fc.constantFrom(...reasons).map((reason) => (m: BatonMetrics) => m.refused(reason)),
  fc
    .oneof(fc.integer({ min: 0, max: 40_000 }), fc.constantFrom(256, 512, 16384, 32769))
    .map((length) => (m: BatonMetrics) => m.sealed(length)),
  fc.tuple(fc.constantFrom(...statuses), fc.constantFrom(...names)).map(
    ([status, name]) =>
      (m: BatonMetrics) =>
        m.taskStatus(status, name),
  ),
  fc.constantFrom<1 | -1>(1, -1).map((delta) => (m: BatonMetrics) => m.listenStream(delta)),
);

/** Two BatonMetrics fed alike: one on the SDK's instruments, one on the AggregatingMeter. */
function pair(gauges: { queueDepth: () => number; timersPending: () => Promise<number> }) {
  const sdkReader = new CollectingReader();
  const sdkMeter: Meter = new MeterProvider({ readers: [sdkReader] }).getMeter(INSTRUMENTATION_NAME);
  const aggregating = new AggregatingMeter(INSTRUMENTATION_NAME);
  const producerReader = new CollectingReader({ metricProducers: [aggregating as unknown as MetricProducer] });
  // The reader is bound to a meter provider of its own, with no instrument: only the producer's points.
  new MeterProvider({ readers: [producerReader] });
  const viaSdk = new BatonMetrics(sdkMeter, new TargetLabels());
  const viaProducer = new BatonMetrics(aggregating, new TargetLabels());
  viaSdk.observe(gauges);
  viaProducer.observe(gauges);
  return { sdkReader, producerReader, both: [viaSdk, viaProducer] as const };
}

/** Baton's metrics as a reader collected them, times left out, series in a fixed order. */
function comparable(resourceMetrics: ResourceMetrics) {
  const scope = resourceMetrics.scopeMetrics.filter((s) => s.scope.name === INSTRUMENTATION_NAME);
  return scope
    .flatMap((s) => s.metrics)
    .map((metric) => ({
      descriptor: {
        name: metric.descriptor.name,
        description: metric.descriptor.description,
        unit: metric.descriptor.unit,
        valueType: metric.descriptor.valueType,
      },
      temporality: metric.aggregationTemporality,
      dataPointType: metric.dataPointType,
      isMonotonic: 'isMonotonic' in metric ? metric.isMonotonic : undefined,
      points: metric.dataPoints
        .map((p) => ({ attributes: p.attributes, value: p.value as unknown }))
        .sort((a, b) => JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes))),
    }))
    .filter((metric) => metric.points.length > 0)
    .sort((a, b) => a.descriptor.name.localeCompare(b.descriptor.name));
}

/** What a Prometheus scrape of these metrics reads (no timestamps: the exporter's default). */
function scrape(resourceMetrics: ResourceMetrics): string {
  const ours = {
    ...resourceMetrics,
    scopeMetrics: resourceMetrics.scopeMetrics.filter((s) => s.scope.name === INSTRUMENTATION_NAME),
  };
  return new PrometheusSerializer(undefined, false, undefined, true).serialize(ours);
}

describe('AggregatingMeter: Baton aggregating its own metrics', () => {
  after(() => metrics.disable());

  it('collects what the SDK collects from the same points, and scrapes the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(point, { maxLength: 120 }), fc.nat(50), fc.nat(50), async (points, depth, timers) => {
        const { sdkReader, producerReader, both } = pair({
          queueDepth: () => depth,
          timersPending: async () => timers,
        });
        for (const apply of points) for (const metrics of both) apply(metrics);
        const [sdk, producer] = await Promise.all([sdkReader.collect(), producerReader.collect()]);
        expect(sdk.errors).to.deep.equal([]);
        expect(producer.errors).to.deep.equal([]);
        expect(comparable(producer.resourceMetrics)).to.deep.equal(comparable(sdk.resourceMetrics));
        expect(scrape(producer.resourceMetrics)).to.equal(scrape(sdk.resourceMetrics));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps counting across collections, from the first point of each series', async () => {
    const { sdkReader, producerReader, both } = pair({ queueDepth: () => 1, timersPending: async () => 0 });
    for (const metrics of both) metrics.request(0.02, 'tools/call', 'release', undefined);
    await Promise.all([sdkReader.collect(), producerReader.collect()]);
    for (const metrics of both) metrics.request(0.5, 'tools/call', 'release', undefined);
    const [sdk, producer] = await Promise.all([sdkReader.collect(), producerReader.collect()]);
    const counted = comparable(producer.resourceMetrics).find(
      (m) => m.descriptor.name === 'mcp.server.operation.duration',
    );
    expect(counted!.points.map((p) => (p.value as { count: number }).count)).to.deep.equal([2]);
    expect(comparable(producer.resourceMetrics)).to.deep.equal(comparable(sdk.resourceMetrics));
    const [point] = producer.resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)[0]!.dataPoints;
    expect(point!.startTime[0] * 1e3 + point!.startTime[1] / 1e6).to.be.at.most(
      point!.endTime[0] * 1e3 + point!.endTime[1] / 1e6,
    );
  });

  it('puts the points past 2,000 series in the overflow series, as the SDK does', async () => {
    const { sdkReader, producerReader, both } = pair({ queueDepth: () => 0, timersPending: async () => 0 });
    // Three methods of 900 targets each: 2,700 series of `baton.round.duration`.
    for (const method of ['tools/call', 'prompts/get', 'resources/read']) {
      for (let i = 0; i < 900; i++)
        for (const metrics of both) metrics.round(0.1, 'request', method, `t${i}`, 'complete', undefined);
    }
    const [sdk, producer] = await Promise.all([sdkReader.collect(), producerReader.collect()]);
    const rounds = comparable(producer.resourceMetrics).find((m) => m.descriptor.name === 'baton.round.duration')!;
    expect(rounds.points).to.have.length(2000);
    expect(rounds.points.filter((p) => p.attributes['otel.metric.overflow'] === true)).to.have.length(1);
    expect(comparable(producer.resourceMetrics)).to.deep.equal(comparable(sdk.resourceMetrics));
  });

  it('finds a series by content when its attribute set is made per call', () => {
    const meter = new AggregatingMeter(INSTRUMENTATION_NAME);
    const counter = meter.createCounter('made.per.call');
    for (let i = 0; i < 3; i++) counter.add(1, { kind: 'same' });
    counter.add(-1, { kind: 'same' });
    return meter.collect().then(({ resourceMetrics }) => {
      const [metric] = resourceMetrics.scopeMetrics[0]!.metrics;
      expect(metric!.dataPoints.map((p) => [p.attributes, p.value])).to.deep.equal([[{ kind: 'same' }, 3]]);
    });
  });
});
