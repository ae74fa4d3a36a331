/**
 * Head sampling keeps a flow whole (docs/observability.md, "A flow is one trace"): the rounds of
 * a flow the sampler dropped at its first round stay dropped, because the state carries the
 * flow's context with the sampled flag off and a parent-based sampler follows it; and a flow
 * sampled at its first round is recorded to its last. The sampler is scripted: it decides each
 * root span from a list and records what it was asked, so the test sees whether a later round
 * came as a root (sampled afresh) or as the child of the flow's first request.
 */
import { context, SamplingDecision, trace, type Context, type Sampler, type SamplingResult } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { expect } from 'chai';
import { createMemoryVault, exampleTools } from '../../machines/index.js';
import { callTool } from '../helpers/mcp-http.js';
import { resultOf } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

/** Decides each root span from `decisions` (sampled or not), and records the trace ids it decided. */
class ScriptedRootSampler implements Sampler {
  decisions: boolean[] = [];
  readonly roots: string[] = [];

  shouldSample(_context: Context, traceId: string): SamplingResult {
    this.roots.push(traceId);
    const sampled = this.decisions.shift() ?? false;
    return { decision: sampled ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD };
  }

  toString(): string {
    return 'ScriptedRootSampler';
  }
}

const ARGS = { service: 'svc-sampling', version: '1.2.3' };

describe('head sampling of a flow', function () {
  this.timeout(30_000);

  const exporter = new InMemorySpanExporter();
  const root = new ScriptedRootSampler();
  /** Which spans the parent-based sampler was asked about, with the parent's trace and flags. */
  const asked: Array<{ traceId: string; parent?: { traceId: string; sampled: boolean } }> = [];
  const parentBased = new ParentBasedSampler({ root });
  const sampler: Sampler = {
    shouldSample(ctx, traceId, ...rest) {
      const parent = trace.getSpanContext(ctx);
      asked.push({
        traceId,
        ...(parent ? { parent: { traceId: parent.traceId, sampled: (parent.traceFlags & 1) === 1 } } : {}),
      });
      return parentBased.shouldSample(ctx, traceId, ...rest);
    },
    toString: () => 'recording parent-based sampler',
  };
  const tracerProvider = new TracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let server: RunningServer;

  before(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    server = await startTestServer({
      tools: exampleTools({ publicUrl: 'http://127.0.0.1:0', vault: createMemoryVault() }),
      telemetry: { tracerProvider },
      docs: false,
    });
  });

  after(async () => {
    await server.close();
    await server.baton.close();
    context.disable();
  });

  beforeEach(() => {
    exporter.reset();
    asked.length = 0;
    root.roots.length = 0;
  });

  /** The three rounds of a `release` flow, with no trace context from the client. */
  async function release(): Promise<void> {
    const first = resultOf(await callTool(server.url, 'release', ARGS));
    const second = resultOf(
      await callTool(server.url, 'release', ARGS, {
        requestState: first.requestState,
        inputResponses: { window: { action: 'accept', content: { window: 'now' } } },
      }),
    );
    const third = resultOf(
      await callTool(server.url, 'release', ARGS, {
        requestState: second.requestState,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      }),
    );
    expect(third.structuredContent).to.include({ released: true });
  }

  it('drops every round of a flow sampled out at its first round, in the same trace', async () => {
    // Were a later round a root, this script would record it.
    root.decisions = [false, true, true];
    await release();
    expect(root.roots, 'only the first round is a root').to.have.length(1);
    const [first, ...later] = asked;
    expect(first!.parent).to.equal(undefined);
    expect(later).to.have.length(2);
    for (const round of later) {
      expect(round.traceId).to.equal(first!.traceId);
      expect(round.parent).to.deep.equal({ traceId: first!.traceId, sampled: false });
    }
    expect(exporter.getFinishedSpans().filter((s) => s.name === 'tools/call release')).to.deep.equal([]);
  });

  it('records every round of a flow sampled at its first round', async () => {
    root.decisions = [true, false, false];
    await release();
    expect(root.roots).to.have.length(1);
    const spans = exporter.getFinishedSpans().filter((s) => s.name === 'tools/call release');
    expect(spans.map((s) => s.attributes['baton.round'])).to.deep.equal([1, 2, 3]);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).to.equal(1);
  });
});
