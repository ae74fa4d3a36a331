/**
 * Telemetry as a host application wires it (docs/observability.md): a server given its own
 * tracer and meter providers (OpenTelemetry's SDK, in memory) and the async-hooks context manager
 * the SDK registers. Task steps link to the call that created the task, a failed flow and a
 * refused state are counted with their reasons, log lines name the round's span, and no argument,
 * answer or error text from the tool lands on a span. Without an SDK, nothing is sealed or built.
 */
import { context, trace, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { expect } from 'chai';
import { fromPromise, setup } from 'xstate';
import { defineTool, openState } from '../../server/engine/index.js';
import { exampleTools, createMemoryVault } from '../../machines/index.js';
import { initializeSession } from '../helpers/legacy-http.js';
import { callTool, rpc } from '../helpers/mcp-http.js';
import { numberTask } from '../helpers/number-task.js';
import { isStatus, listenToTasks, resultOf, TASK_CLIENT, taskRpc, waitForTask, createTask } from '../helpers/tasks.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';

class CollectingReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

const SECRET_ERROR = 'boom-7c1e: the vault said no';
const failing = defineTool({
  name: 'always-fails',
  description: 'Its work always throws.',
  inputSchema: { type: 'object', properties: { note: { type: 'string' } } },
  machine: setup({
    actors: {
      work: fromPromise(async (): Promise<void> => {
        throw new Error(SECRET_ERROR);
      }),
    },
  }).createMachine({
    id: 'alwaysFails',
    initial: 'working',
    states: { working: { invoke: { src: 'work', onDone: 'done' } }, done: { type: 'final' } },
  }),
});

const ARGS = { service: 'svc-arg-91d2', version: '3.3.3-arg' };

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

describe('telemetry with an SDK the host registers', function () {
  this.timeout(30_000);

  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const logs: Array<{ level: string; event: string; fields: Record<string, unknown> }> = [];
  const log = (level: string) => (event: string, fields?: Record<string, unknown>) =>
    logs.push({ level, event, fields: fields ?? {} });
  let now = Date.now();
  let server: RunningServer;

  before(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const vault = createMemoryVault();
    server = await startTestServer({
      tools: [...exampleTools({ publicUrl: 'http://127.0.0.1:0', vault }), numberTask, failing],
      telemetry: { tracerProvider, meterProvider },
      logger: { info: log('info'), warn: log('warn'), error: log('error') },
      clock: () => now,
      docs: false,
    });
  });

  after(async () => {
    await server.close();
    await server.baton.close();
    context.disable();
  });

  beforeEach(() => exporter.reset());

  async function points(name: string): Promise<DataPoint<number>[]> {
    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
    return (metric?.dataPoints ?? []) as DataPoint<number>[];
  }

  async function count(name: string, attributes: Record<string, unknown>): Promise<number> {
    const matching = (await points(name)).filter((point) =>
      Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
    );
    return matching.reduce((sum, point) => sum + (typeof point.value === 'number' ? point.value : 0), 0);
  }

  const spansNamed = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name);

  it('links every step of a task to the call that created it, each step in its own trace', async () => {
    const created = resultOf(
      await taskRpc(server.url, 'tools/call', { name: 'number-task', arguments: {} }, { capabilities: TASK_CLIENT }),
    );
    const { taskId } = created;
    const asking = await waitForTask(server.url, taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(asking.inputRequests);
    resultOf(
      await taskRpc(server.url, 'tasks/update', {
        taskId,
        inputResponses: { [key!]: { action: 'accept', content: { n: 42 } } },
      }),
    );
    await waitForTask(server.url, taskId, (task) => task.status === 'completed');

    // The creating round is recorded on its request's span.
    const [creatingRound] = spansNamed('tools/call number-task').filter(
      (s) => s.attributes['baton.round.mode'] === 'request',
    );
    expect(creatingRound!.attributes['baton.round.outcome']).to.equal('task');
    const steps = spansNamed('baton.round number-task').filter((s) => s.attributes['baton.round.mode'] === 'step');
    expect(steps.map((s) => s.attributes['baton.round.outcome'])).to.deep.equal(['input_required', 'complete']);
    for (const step of steps) {
      expect(step.attributes['baton.task.id']).to.equal(taskId);
      expect(step.parentSpanContext, 'a step starts its own trace').to.equal(undefined);
      expect(step.links.map((l) => [l.context.spanId, l.attributes?.['baton.link']])).to.deep.equal([
        [creatingRound!.spanContext().spanId, 'task_created_by'],
      ]);
    }
    expect(new Set(steps.map((s) => s.spanContext().traceId)).size).to.equal(2);
    expect(
      await count('baton.task.status_changes', { 'baton.task.status': 'completed', 'gen_ai.tool.name': 'number-task' }),
    ).to.be.at.least(1);
    expect(await count('baton.task.status_changes', { 'baton.task.status': 'input_required' })).to.be.at.least(1);
    expect((await points('baton.task.step.duration')).length).to.be.greaterThan(0);
  });

  it('counts a failed flow, marks the spans as errors, and logs with the round span ids', async () => {
    const response = await callTool(server.url, 'always-fails', { note: 'note-arg-55aa' });
    expect(resultOf(response).isError).to.equal(true);
    const [request] = spansNamed('tools/call always-fails');
    expect(spansNamed('baton.round always-fails'), 'the round is recorded on the request span').to.deep.equal([]);
    const round = request;
    expect(round!.attributes).to.include({
      'baton.round.outcome': 'failed',
      'error.type': 'tool_error',
      'baton.flow.outcome': 'failed',
    });
    expect(request!.attributes['error.type']).to.equal('tool_error');
    expect(request!.status.code).to.equal(2);
    expect(request!.status.message ?? '').to.not.include('boom');
    expect(request!.kind).to.equal(SpanKind.SERVER);
    expect(
      await count('baton.flow.ended', { 'gen_ai.tool.name': 'always-fails', 'baton.flow.outcome': 'failed' }),
    ).to.equal(1);

    const failed = logs.find((line) => line.event === 'flow_failed');
    expect(failed?.fields).to.include({ trace_id: round!.spanContext().traceId, span_id: round!.spanContext().spanId });
    // The tool's error text is the log's (for operators), never a span's.
    const attributes = stringsIn(request!.attributes);
    expect(attributes.filter((value) => value.includes('boom') || value.includes('note-arg-55aa'))).to.deep.equal([]);
  });

  it("gives a 2025-11-25 request's round a span of its own, having no request span", async () => {
    const { client } = await initializeSession(server.url);
    exporter.reset();
    const response = await client.request('tools/call', { name: 'always-fails', arguments: { note: 'x' } });
    expect(response.body?.result?.isError, response.text).to.equal(true);
    const [round] = spansNamed('baton.round always-fails');
    expect(round, 'a round span').to.not.equal(undefined);
    expect(round!.parentSpanContext).to.equal(undefined);
    expect(round!.attributes).to.include({
      'baton.round.mode': 'request',
      'baton.round': 1,
      'error.type': 'tool_error',
    });
    expect(spansNamed('tools/call always-fails')).to.deep.equal([]);
  });

  it('names why a presented state was refused on the request span and in the counter', async () => {
    // The clock from now: a run of the whole suite can outlast a state's 15 minutes since this file loaded.
    now = Date.now();
    const first = resultOf(await callTool(server.url, 'release', ARGS));
    const token = first.requestState as string;
    exporter.reset();
    now += 16 * 60 * 1000; // past the 15-minute lifetime
    const expired = await callTool(server.url, 'release', ARGS, { requestState: token, inputResponses: {} });
    now = Date.now();
    expect(expired.body.error.code).to.equal(-32602);
    const wrongArgs = await callTool(
      server.url,
      'release',
      { ...ARGS, version: '0' },
      { requestState: token, inputResponses: {} },
    );
    expect(wrongArgs.body.error.code).to.equal(-32602);
    const requests = spansNamed('tools/call release');
    expect(requests.map((s) => s.attributes['baton.refusal.reason'])).to.deep.equal(['expired', 'wrong_arguments']);
    // The log line of each refusal names the request's span.
    const rejected = logs.filter((line) => line.event === 'request_state_rejected').slice(-2);
    expect(rejected.map((line) => [line.fields.check, line.fields.span_id])).to.deep.equal([
      ['expiry', requests[0]!.spanContext().spanId],
      ['arguments', requests[1]!.spanContext().spanId],
    ]);
    expect(requests.map((s) => s.attributes['error.type'])).to.deep.equal(['-32602', '-32602']);
    expect(await count('baton.request_state.refused', { 'baton.refusal.reason': 'expired' })).to.equal(1);
    expect(await count('baton.request_state.refused', { 'baton.refusal.reason': 'wrong_arguments' })).to.equal(1);
    const everything = exporter.getFinishedSpans().flatMap((span: ReadableSpan) => stringsIn(span.attributes));
    expect(everything.filter((value) => value.includes(ARGS.service) || value.includes(token))).to.deep.equal([]);
  });

  it('counts live subscriptions/listen streams while they are open', async () => {
    const streams = async () => count('baton.listen.streams', {});
    const { taskId } = resultOf(
      await taskRpc(server.url, 'tools/call', { name: 'number-task', arguments: {} }, { capabilities: TASK_CLIENT }),
    );
    const asking = await waitForTask(server.url, taskId, (task) => task.status === 'input_required');
    const before = await streams();
    const controller = new AbortController();
    const listening = await listenToTasks(server.url, [taskId], { signal: controller.signal });
    expect(listening.headers.get('content-type')).to.match(/text\/event-stream/);
    expect(await streams()).to.equal(before + 1);
    controller.abort();
    await listening.body?.cancel().catch(() => {});
    const deadline = Date.now() + 5000;
    while ((await streams()) !== before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await streams()).to.equal(before);
    const [key] = Object.keys(asking.inputRequests);
    await taskRpc(server.url, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'decline' } } });
  });

  it('counts a replayed single-use state, and observes the queue, the timers and the sessions', async () => {
    const first = resultOf(await callTool(server.url, 'release', ARGS));
    const second = resultOf(
      await callTool(server.url, 'release', ARGS, {
        requestState: first.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
      }),
    );
    const confirm = {
      requestState: second.requestState,
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    };
    resultOf(await callTool(server.url, 'release', ARGS, confirm));
    // The same confirmation again: answered with the first run's outcome, and counted as a replay.
    resultOf(await callTool(server.url, 'release', ARGS, confirm));
    expect(await count('baton.request_state.refused', { 'baton.refusal.reason': 'replayed' })).to.equal(1);

    const { response } = await initializeSession(server.url);
    expect(response.headers.get('mcp-session-id')).to.be.a('string');
    expect(await count('baton.legacy.sessions', {})).to.be.at.least(1);
    // A release approved bakes on a durable timer: one pending until it falls due.
    const { taskId } = await createTask(server.url, 'ship-release', { service: 'a', version: '1', bakeSeconds: 3600 });
    await waitForTask(server.url, taskId, isStatus('input_required'));
    resultOf(
      await taskRpc(server.url, 'tasks/update', {
        taskId,
        inputResponses: { approve: { action: 'accept', content: { approve: true } } },
      }),
    );
    const deadline = Date.now() + 5000;
    while ((await count('baton.task.timers.pending', {})) < 1 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await count('baton.task.timers.pending', {})).to.be.at.least(1);
    await taskRpc(server.url, 'tasks/cancel', { taskId });
    expect((await points('baton.task.queue.depth')).map((p) => p.value)).to.deep.equal([0]);
  });

  it('counts requests by method with the MCP duration histogram', async () => {
    await rpc(server.url, 'tools/list');
    await rpc(server.url, 'no/such-method');
    expect(await count('mcp.server.operation.duration', {}), 'histograms are not summed here').to.equal(0);
    const listed = (await points('mcp.server.operation.duration')).filter(
      (p) => p.attributes['mcp.method.name'] === 'tools/list',
    );
    expect(listed).to.have.length(1);
    const unknown = (await points('mcp.server.operation.duration')).filter(
      (p) => p.attributes['mcp.method.name'] === '_OTHER',
    );
    expect(unknown.map((p) => p.attributes['error.type'])).to.deep.equal(['-32601']);
  });
});

describe('telemetry with no SDK registered', () => {
  it('records nothing and seals the ten claims states always had', async () => {
    const keyRing = testKeyRing();
    const server = await startTestServer({ keyRing });
    try {
      expect(trace.getTracerProvider().getTracer('x').startSpan('y').isRecording()).to.equal(false);
      expect(server.baton.telemetry.active).to.equal(false);
      expect(server.baton.telemetry.metrics).to.equal(undefined);
      const first = resultOf(await callTool(server.url, 'release', ARGS));
      const opened = openState(first.requestState, keyRing, 16 * 1024);
      expect(opened?.claims).to.not.have.property('trace');
    } finally {
      await server.close();
      await server.baton.close();
    }
  });
});
