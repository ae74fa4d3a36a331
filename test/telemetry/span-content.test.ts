/**
 * No span or metric carries what a client or user sent or what a tool answered
 * (docs/observability.md, "What is never recorded"), checked in the fast loop: real flows run
 * against a server in this process with OpenTelemetry's in-memory exporter and reader, with a
 * distinctive marker in every argument, answer, URI, prompt argument, unknown name and method; then
 * every span's name, attributes, events, links and status, and every metric point's attributes,
 * are scanned for the markers, the results' text and each `requestState` handed out.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { expect } from 'chai';
import { templateDataResource } from '../../machines/conformance/template-data-resource.js';
import { testPromptWithArguments } from '../../machines/conformance/test-prompt-with-arguments.js';
import { callTool, rpc } from '../helpers/mcp-http.js';
import { numberTask } from '../helpers/number-task.js';
import { resultOf, TASK_CLIENT, taskRpc, waitForTask } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { exampleTools, createMemoryVault } from '../../machines/index.js';

class CollectingReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

/** One marker per thing a client or user sends: found anywhere in telemetry, the test names which. */
const MARK = {
  argument: 'arg-mark-5e1c',
  comment: 'answer-mark-9d04',
  details: 'answer-mark-31fa',
  taskNumber: 736281945,
  uri: 'uri-mark-c7a2',
  promptArgument: 'prompt-mark-02bd',
  unknownTool: 'tool-mark-84e6',
  unknownMethod: 'method-mark-6f13',
};

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/** Every text a span carries: name, attributes, events, links and status. */
function spanTexts(span: ReadableSpan): string[] {
  return [
    span.name,
    ...stringsIn(span.attributes),
    ...span.events.flatMap((event) => [event.name, ...stringsIn(event.attributes ?? {})]),
    ...span.links.flatMap((link) => stringsIn(link.attributes ?? {})),
    span.status.message ?? '',
  ];
}

describe('what spans and metrics carry of real flows (content scan)', function () {
  this.timeout(60_000);

  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  let server: RunningServer;

  before(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    server = await startTestServer({
      tools: [...exampleTools({ publicUrl: 'http://127.0.0.1:0', vault: createMemoryVault() }), numberTask],
      prompts: [testPromptWithArguments],
      resources: [templateDataResource],
      telemetry: { tracerProvider, meterProvider },
      docs: false,
    });
  });

  after(async () => {
    await server.close();
    await server.baton.close();
    context.disable();
  });

  it('finds no argument, answer, result, requestState or client-named text in any span or metric', async () => {
    const secrets: string[] = Object.values(MARK).map(String);

    // A three-round flow: an argument, two free-text answers, two sealed states, a result.
    const args = { subject: MARK.argument };
    const first = resultOf(await callTool(server.url, 'collect-feedback', args));
    const second = resultOf(
      await callTool(server.url, 'collect-feedback', args, {
        requestState: first.requestState,
        inputResponses: { rating: { action: 'accept', content: { rating: 1, comment: MARK.comment } } },
      }),
    );
    const done = resultOf(
      await callTool(server.url, 'collect-feedback', args, {
        requestState: second.requestState,
        inputResponses: {
          details: { action: 'accept', content: { whatWentWrong: MARK.details, contactMe: true } },
        },
      }),
    );
    expect(done.resultType).to.equal('complete');
    const ticket = JSON.stringify(done.structuredContent ?? done.content).match(/FB-[0-9a-f]{6}/)?.[0];
    expect(ticket, 'the result names its ticket').to.be.a('string');
    secrets.push(first.requestState, second.requestState, ticket!);

    // A task: its answer travels through tasks/update and lands in its result.
    const { taskId } = resultOf(
      await taskRpc(server.url, 'tools/call', { name: 'number-task', arguments: {} }, { capabilities: TASK_CLIENT }),
    );
    const asking = await waitForTask(server.url, taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(asking.inputRequests);
    await taskRpc(server.url, 'tasks/update', {
      taskId,
      inputResponses: { [key!]: { action: 'accept', content: { n: MARK.taskNumber } } },
    });
    await waitForTask(server.url, taskId, (task) => task.status === 'completed');

    // A prompt's arguments, a template URI read, and names the catalogue does not have.
    const prompt = resultOf(
      await rpc(server.url, 'prompts/get', {
        name: testPromptWithArguments.name,
        arguments: { arg1: MARK.promptArgument, arg2: 'x' },
      }),
    );
    expect(JSON.stringify(prompt)).to.include(MARK.promptArgument);
    const read = resultOf(await rpc(server.url, 'resources/read', { uri: `test://template/${MARK.uri}/data` }));
    expect(JSON.stringify(read)).to.include(MARK.uri);
    expect((await callTool(server.url, MARK.unknownTool, {})).body.error.code).to.equal(-32602);
    expect((await rpc(server.url, `tools/${MARK.unknownMethod}`)).body.error.code).to.equal(-32601);

    const spans = exporter.getFinishedSpans();
    // Every kind of request above left spans to scan: the scan is not vacuous.
    const names = new Set(spans.map((span) => span.name));
    for (const expected of [
      'tools/call collect-feedback',
      'baton.round number-task',
      'tasks/update',
      `prompts/get ${testPromptWithArguments.name}`,
      `resources/read ${templateDataResource.uriTemplate}`,
      'tools/call',
      '_OTHER',
    ]) {
      expect(names, expected).to.include(expected);
    }
    const leaks = spans.flatMap((span) =>
      spanTexts(span)
        .filter((text) => secrets.some((secret) => text.includes(secret)))
        .map((text) => `${span.name}: ${text.slice(0, 80)}`),
    );
    expect(leaks).to.deep.equal([]);

    const { resourceMetrics } = await reader.collect();
    const labels = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .flatMap((metric) => metric.dataPoints.flatMap((point) => stringsIn(point.attributes)));
    expect(labels.length).to.be.greaterThan(0);
    expect(labels.filter((text) => secrets.some((secret) => text.includes(secret)))).to.deep.equal([]);
  });
});
