/**
 * What a client sends never becomes a metric label or a span name (docs/observability.md, "What
 * is never recorded"): reading 3,000 distinct URIs of one resource template adds no Prometheus
 * series and leaves the scrape under 1 MB; the spans name the template, and a request id of
 * 900 KB reaches a span shortened. The scrape is served by OpenTelemetry's Prometheus exporter in
 * this process, as `baton serve` serves it on BATON_METRICS_PORT.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { expect } from 'chai';
import { templateDataResource } from '../../machines/conformance/template-data-resource.js';
import { MAX_REQUEST_ID_LENGTH } from '../../server/telemetry/index.js';
import { rpc } from '../helpers/mcp-http.js';
import { resultOf } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const TEMPLATE = templateDataResource.uriTemplate;
const MARKER = 'uri-marker-4b7e';
const uriFor = (id: string) => TEMPLATE.replace('{id}', id);

describe('telemetry labels and span names come from the catalogue', function () {
  this.timeout(120_000);

  const spans = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const meterProvider = new MeterProvider({ readers: [prometheus] });
  let scrapeServer: Server;
  let scrapeUrl: string;
  let server: RunningServer;

  before(async () => {
    scrapeServer = createHttpServer((request, response) => prometheus.getMetricsRequestHandler(request, response));
    await new Promise<void>((resolve) => scrapeServer.listen(0, '127.0.0.1', resolve));
    scrapeUrl = `http://127.0.0.1:${(scrapeServer.address() as AddressInfo).port}/metrics`;
    server = await startTestServer({
      resources: [templateDataResource],
      telemetry: { tracerProvider, meterProvider },
      docs: false,
    });
  });

  after(async () => {
    await server.close();
    await server.baton.close();
    await new Promise((resolve) => scrapeServer.close(resolve));
    await meterProvider.shutdown();
  });

  beforeEach(() => spans.reset());

  const scrape = async () => (await fetch(scrapeUrl)).text();
  /** Sample lines: one per series and bucket (comments are HELP and TYPE). */
  const series = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));

  it('adds no series for 3,000 distinct URIs of one template, and the scrape stays under 1 MB', async () => {
    resultOf(await rpc(server.url, 'resources/read', { uri: uriFor('first') }));
    const before = await scrape();
    const ids = Array.from({ length: 3000 }, (_, index) => `${MARKER}-${index}`);
    for (let start = 0; start < ids.length; start += 25) {
      const batch = ids.slice(start, start + 25).map((id) => rpc(server.url, 'resources/read', { uri: uriFor(id) }));
      for (const response of await Promise.all(batch)) expect(resultOf(response).contents).to.have.length(1);
    }
    const after = await scrape();
    expect(Buffer.byteLength(after), 'scrape bytes').to.be.below(1024 * 1024);
    expect(series(after).length, 'series after 3,000 URIs').to.equal(series(before).length);
    expect(after).to.not.include(MARKER);
    expect(after).to.include(`baton_target_name="${TEMPLATE}"`);

    const finished = spans.getFinishedSpans();
    // One span a request: its round is recorded on it.
    expect(finished.length).to.be.at.least(3000);
    expect(new Set(finished.map((span) => span.name))).to.deep.equal(new Set([`resources/read ${TEMPLATE}`]));
    const targets = new Set(finished.map((span) => span.attributes['baton.target.name']));
    expect(targets).to.deep.equal(new Set([TEMPLATE]));
  });

  it('names an unknown URI by the method alone, with no target', async () => {
    const missing = await rpc(server.url, 'resources/read', { uri: `nothing://${MARKER}` });
    expect(missing.body.error.code).to.equal(-32602);
    const [span] = spans.getFinishedSpans();
    expect(span!.name).to.equal('resources/read');
    expect(JSON.stringify(span!.attributes)).to.not.include(MARKER);
    expect(await scrape()).to.not.include(MARKER);
  });

  it('shortens a request id of 900 KB on the request span', async () => {
    const id = `${MARKER}-${'x'.repeat(900 * 1024)}`;
    const response = await rpc(server.url, 'resources/read', { uri: uriFor('id-test') }, { id });
    resultOf(response);
    const [request] = spans.getFinishedSpans().filter((span) => span.name.startsWith('resources/read'));
    const recorded = request!.attributes['jsonrpc.request.id'] as string;
    expect(recorded.length).to.be.at.most(MAX_REQUEST_ID_LENGTH + 16);
    expect(recorded.startsWith(id.slice(0, MAX_REQUEST_ID_LENGTH))).to.equal(true);
    expect(recorded).to.not.equal(id.slice(0, recorded.length), 'a shortened id is marked');
    const short = await rpc(server.url, 'resources/read', { uri: uriFor('id-test') }, { id: 'short-id' });
    resultOf(short);
    const last = spans
      .getFinishedSpans()
      .filter((span) => span.name.startsWith('resources/read'))
      .at(-1);
    expect(last!.attributes['jsonrpc.request.id']).to.equal('short-id');
  });
});
