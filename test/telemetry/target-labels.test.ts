/**
 * The closed set of target names (server/telemetry/target-labels.ts): a name the catalogue does
 * not define is labelled `unknown` on every metric, and without a catalogue the number of distinct
 * names is capped. Request ids are shortened with a mark (request-id.ts).
 */
import { MeterProvider, MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import { expect } from 'chai';
import {
  MAX_REQUEST_ID_LENGTH,
  MAX_TARGET_NAMES,
  requestIdForTelemetry,
  SHORTENED_MARK,
  TargetLabels,
  Telemetry,
  UNKNOWN_TARGET,
} from '../../server/telemetry/index.js';

class CollectingReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

const catalogue = {
  has: (method: string, name: string) =>
    (method === 'tools/call' && name === 'release') || (method === 'resources/read' && name === 'test://t/{id}'),
};

describe('TargetLabels', () => {
  it('keeps a name the catalogue defines and labels any other `unknown`', () => {
    const labels = new TargetLabels();
    labels.useCatalogue(catalogue);
    expect(labels.label('tools/call', 'release')).to.equal('release');
    expect(labels.label('resources/read', 'test://t/{id}')).to.equal('test://t/{id}');
    expect(labels.label('resources/read', 'test://t/42')).to.equal(UNKNOWN_TARGET);
    expect(labels.label('prompts/get', 'release')).to.equal(UNKNOWN_TARGET);
  });

  it('caps the distinct names per method when no catalogue is named', () => {
    const labels = new TargetLabels();
    const names = Array.from({ length: MAX_TARGET_NAMES + 50 }, (_, index) => `name-${index}`);
    const recorded = new Set(names.map((name) => labels.label('tools/call', name)));
    expect(recorded.size).to.equal(MAX_TARGET_NAMES + 1);
    expect(recorded.has(UNKNOWN_TARGET)).to.equal(true);
    // A name seen before the cap keeps its label.
    expect(labels.label('tools/call', 'name-0')).to.equal('name-0');
  });
});

describe('metrics of a service that names its catalogue', () => {
  it('record a target outside the catalogue as `unknown` on every instrument', async () => {
    const reader = new CollectingReader();
    const telemetry = new Telemetry({ meterProvider: new MeterProvider({ readers: [reader] }) });
    telemetry.useCatalogue(catalogue);
    const metrics = telemetry.metrics!;
    for (const name of ['release', 'client-text-1', 'client-text-2']) {
      metrics.request(0.01, 'tools/call', name, undefined);
      metrics.round(0.01, 'request', 'tools/call', name, 'complete', undefined);
      metrics.flowStarted('tools/call', name);
      metrics.flowEnded('tools/call', name, 'completed');
      metrics.taskStatus('working', name);
    }
    const { resourceMetrics } = await reader.collect();
    const points = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .flatMap((metric) => metric.dataPoints as DataPoint<unknown>[]);
    const tools = new Set(points.map((point) => point.attributes['gen_ai.tool.name']));
    expect(tools).to.deep.equal(new Set(['release', UNKNOWN_TARGET]));
    expect(points).to.have.length(10);
  });
});

describe('requestIdForTelemetry', () => {
  it('keeps a short id whole and shortens a long one with a mark', () => {
    expect(requestIdForTelemetry(7)).to.equal('7');
    expect(requestIdForTelemetry('a'.repeat(MAX_REQUEST_ID_LENGTH))).to.equal('a'.repeat(MAX_REQUEST_ID_LENGTH));
    const long = requestIdForTelemetry('b'.repeat(900 * 1024));
    expect(long).to.equal('b'.repeat(MAX_REQUEST_ID_LENGTH) + SHORTENED_MARK);
  });
});
