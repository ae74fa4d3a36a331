/**
 * A flow is one trace (docs/observability.md): two real `baton serve` processes sharing a key,
 * with the OpenTelemetry SDK turned on by the standard OTEL_* variables, export their spans to an
 * OTLP/HTTP receiver in this process. The three rounds of a `release` flow go to instance one,
 * two, then one again, and the client sends no trace context: the spans still land in one trace,
 * each round linked to the one before, and no argument or answer appears anywhere in what was
 * exported.
 */
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';
import { postRaw, requestMeta, standardHeaders, type RawResponse } from '../helpers/mcp-http.js';
import { OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';

const SERVER = 2;
const INTERNAL = 1;
/** Values a client typed: none may reach a span. */
const ARGS = { service: 'svc-marker-7f3a', version: '9.9.9-marker' };
const WINDOW = 'weekend';

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

describe('traces of a flow across two instances (OTLP/HTTP)', function () {
  this.timeout(90_000);

  const fleet = new BatonFleet();
  const receiver = new OtlpReceiver();
  let one: BatonInstance;
  let two: BatonInstance;

  before(async () => {
    const endpoint = await receiver.start();
    const keys = generateKeyEntry('shared');
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'baton-trace-test',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    [one, two] = await Promise.all([fleet.start({ keys, env }), fleet.start({ keys, env })]);
  });

  after(async () => {
    await fleet.stopAll();
    await receiver.stop();
  });

  async function release(rounds: Array<{ to: BatonInstance; meta?: Record<string, unknown> }>): Promise<RawResponse[]> {
    const answers = [undefined, { window: { action: 'accept', content: { window: WINDOW } } }, undefined];
    const responses: RawResponse[] = [];
    for (const [index, round] of rounds.entries()) {
      const previous = responses[index - 1]?.body.result;
      const confirm = previous && Object.keys(previous.inputRequests)[0];
      const inputResponses =
        index === 0 ? undefined : (answers[index] ?? { [confirm]: { action: 'accept', content: { confirm: true } } });
      const params = {
        name: 'release',
        arguments: ARGS,
        ...(previous ? { requestState: previous.requestState, inputResponses } : {}),
      };
      const message = {
        jsonrpc: '2.0',
        id: 100 + index,
        method: 'tools/call',
        params: { ...params, _meta: requestMeta({ elicitation: {} }, round.meta ?? {}) },
      };
      const response = await postRaw(round.to.url, JSON.stringify(message), standardHeaders(message));
      expect(response.body?.error, response.text).to.equal(undefined);
      responses.push(response);
    }
    expect(responses[2]!.body.result.structuredContent).to.include({ released: true, window: WINDOW });
    return responses;
  }

  it('puts the three rounds in one trace, linked, without a traceparent from the client', async () => {
    const responses = await release([{ to: one }, { to: two }, { to: one }]);
    expect(responses.map((r) => r.headers.get('baton-instance'))).to.deep.equal([
      one.instanceId,
      two.instanceId,
      one.instanceId,
    ]);
    const isOurs = (span: ReceivedSpan) => span.attributes['jsonrpc.request.id'] !== undefined;
    const spans = await receiver.waitFor(
      (all) =>
        all.filter(
          (s) =>
            s.kind === SERVER &&
            isOurs(s) &&
            ['100', '101', '102'].includes(s.attributes['jsonrpc.request.id'] as string),
        ).length === 3,
    );
    const requests = [0, 1, 2].map((i) =>
      spans.find((s) => s.kind === SERVER && s.attributes['jsonrpc.request.id'] === String(100 + i))!,
    );
    // A request runs one round, recorded on the request's own span: no span of its own.
    const rounds = requests;
    expect(spans.filter((s) => s.kind === INTERNAL && s.traceId === requests[0]!.traceId)).to.deep.equal([]);

    // One trace; requests 2 and 3 hang under the first and link the round before them.
    expect(new Set(requests.map((s) => s.traceId)).size).to.equal(1);
    expect(requests[0]!.parentSpanId).to.equal(undefined);
    expect(requests[1]!.parentSpanId).to.equal(requests[0]!.spanId);
    expect(requests[2]!.parentSpanId).to.equal(requests[0]!.spanId);
    expect(rounds[0]!.links).to.deep.equal([]);
    expect(rounds[1]!.links.map((l) => [l.spanId, l.attributes['baton.link']])).to.deep.equal([
      [rounds[0]!.spanId, 'previous_round'],
    ]);
    expect(rounds[2]!.links.map((l) => [l.spanId, l.attributes['baton.link']])).to.deep.equal([
      [rounds[1]!.spanId, 'previous_round'],
    ]);

    // Served by two instances: each process has its own resource, and names itself on its spans.
    expect(requests.map((s) => s.attributes['baton.instance.id'])).to.deep.equal([
      one.instanceId,
      two.instanceId,
      one.instanceId,
    ]);
    expect(requests[0]!.resource['service.name']).to.equal('baton-trace-test');
    expect(requests[0]!.resource['service.instance.id']).to.not.equal(requests[1]!.resource['service.instance.id']);

    // What each span says: the MCP conventions on the request, the round's outcome and questions.
    expect(requests[0]!.name).to.equal('tools/call release');
    expect(requests[0]!.attributes).to.include({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'release',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': PROTOCOL_VERSION,
      'network.transport': 'tcp',
      'baton.result_type': 'input_required',
    });
    expect(rounds.map((s) => s.attributes['baton.round'])).to.deep.equal([1, 2, 3]);
    expect(rounds.map((s) => s.attributes['baton.round.outcome'])).to.deep.equal([
      'input_required',
      'input_required',
      'complete',
    ]);
    expect(rounds[0]!.attributes['baton.round.question_keys']).to.deep.equal(['window']);
    expect(rounds[0]!.attributes['baton.round.waiting_states']).to.deep.equal(['pickWindow']);
    expect(rounds[2]!.attributes['baton.flow.outcome']).to.equal('completed');
    expect(rounds.map((s) => s.events.map((e) => e.name))).to.deep.equal([
      ['baton.request_state.sealed'],
      ['baton.request_state.opened', 'baton.request_state.sealed'],
      ['baton.request_state.opened'],
    ]);
    const sealedSize = rounds[0]!.events[0]!.attributes['baton.request_state.size'];
    expect(sealedSize).to.equal((responses[0]!.body.result.requestState as string).length);

    // Names and sizes only: no argument, answer or sealed state anywhere in what was exported.
    const everything = requests.flatMap((s) => [
      ...stringsIn(s.attributes),
      ...s.events.flatMap((e) => stringsIn(e.attributes)),
      ...s.links.flatMap((l) => stringsIn(l.attributes)),
    ]);
    for (const secret of [ARGS.service, ARGS.version, WINDOW, responses[0]!.body.result.requestState]) {
      expect(
        everything.filter((value) => value.includes(secret)),
        secret,
      ).to.deep.equal([]);
      expect(
        receiver.bodies.filter((body) => body.includes(secret)),
        secret,
      ).to.deep.equal([]);
    }
  });

  it("makes the client's _meta traceparent the parent of each request, and still links the rounds", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const client = (spanId: string) => ({ traceparent: `00-${traceId}-${spanId}-01` });
    await release([
      { to: two, meta: client('00f067aa0ba902b7') },
      { to: one, meta: client('00f067aa0ba902b8') },
      { to: two, meta: client('00f067aa0ba902b9') },
    ]);
    const spans = await receiver.waitFor((all) => all.filter((s) => s.traceId === traceId).length >= 3);
    const requests = spans.filter((s) => s.traceId === traceId && s.kind === SERVER);
    expect(requests.map((s) => s.parentSpanId).sort()).to.deep.equal([
      '00f067aa0ba902b7',
      '00f067aa0ba902b8',
      '00f067aa0ba902b9',
    ]);
    expect(spans.filter((s) => s.traceId === traceId && s.kind === INTERNAL)).to.deep.equal([]);
    const linked = requests.filter((s) =>
      s.links.some(
        (l) => l.attributes['baton.link'] === 'previous_round' && requests.some((r) => r.spanId === l.spanId),
      ),
    );
    expect(linked).to.have.length(2);
  });
});
