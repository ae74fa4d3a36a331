import { expect } from 'chai';
import { callToolResult, parallelFlow, threeQuestionFlow } from '../../bench/flows/bench-flows.js';
import { askedField, readRound, requestBody, responseMessage } from '../../bench/load/mcp-exchange.js';
import { PROTOCOL_VERSION } from '../../server/protocol/index.js';

const json = (message: unknown, status = 200) => ({
  status,
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify(message)),
});

const elicit = (message: string, schema: object) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: schema },
});

const windowMessage = `When should ${threeQuestionFlow.arguments.service} ${threeQuestionFlow.arguments.version} go out?`;

const ask = (key: string, schema: object, message = windowMessage) => ({
  resultType: 'input_required',
  inputRequests: { [key]: elicit(message, schema) },
  requestState: 'state-1',
});

describe('bench mcp-exchange', () => {
  const flow = threeQuestionFlow;
  const firstSchema = flow.rounds[0]![0]!.schema;

  it('builds a tools/call with the answers, the echoed state and _meta', () => {
    const body = JSON.parse(requestBody(7, flow, { inputResponses: { a: 1 }, requestState: 's' }).toString());
    expect(body).to.include({ jsonrpc: '2.0', id: 7, method: 'tools/call' });
    expect(body.params).to.include({ name: flow.tool, requestState: 's' });
    expect(body.params.inputResponses).to.deep.equal({ a: 1 });
    expect(body.params._meta['io.modelcontextprotocol/protocolVersion']).to.equal(PROTOCOL_VERSION);
  });

  it('answers the asked keys and carries the state into the next round', () => {
    const known: Record<string, unknown> = { ...flow.arguments };
    const reading = readRound(flow, 0, 1, json({ jsonrpc: '2.0', id: 1, result: ask('window', firstSchema) }), known);
    expect(reading.kind).to.equal('ask');
    if (reading.kind !== 'ask') return;
    expect(reading.next.requestState).to.equal('state-1');
    expect(reading.next.inputResponses).to.deep.equal({ window: { action: 'accept', content: { window: 'now' } } });
    expect(reading.stateLength).to.equal(7);
    expect(known.window).to.equal('now');
  });

  it('checks the final result against the flow definition', () => {
    const known = { ...flow.arguments, window: 'now', approver: 'bench-approver', confirm: true };
    const good = { jsonrpc: '2.0', id: 4, result: { resultType: 'complete', ...callToolResult(flow.result(known)) } };
    expect(readRound(flow, 3, 4, json(good), { ...known }).kind).to.equal('done');
    const wrong = { jsonrpc: '2.0', id: 4, result: callToolResult({ released: false }) };
    expect(readRound(flow, 3, 4, json(wrong), { ...known }).kind).to.equal('error');
  });

  it('reports every deviation as an error', () => {
    const known = { ...flow.arguments };
    const cases = [
      json({ jsonrpc: '2.0', id: 1, result: ask('window', firstSchema) }, 500),
      json({ jsonrpc: '2.0', id: 2, result: ask('window', firstSchema) }),
      json({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'invalid or expired requestState' } }),
      json({ jsonrpc: '2.0', id: 1, result: ask('approver', firstSchema) }),
      json({ jsonrpc: '2.0', id: 1, result: ask('window', firstSchema, 'When?') }),
      json({ jsonrpc: '2.0', id: 1, result: ask('window', flow.rounds[1]![0]!.schema) }),
      json({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [] } }),
      json({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [], isError: true } }),
      { status: 200, contentType: 'application/json', body: Buffer.from('not json') },
    ];
    for (const reply of cases)
      expect(readRound(flow, 0, 1, reply, known).kind, reply.body.toString()).to.equal('error');
    const afterLast = json({ jsonrpc: '2.0', id: 1, result: ask('window', firstSchema) });
    expect(readRound(flow, 3, 1, afterLast, known).kind).to.equal('error');
  });

  it('knows a question by the field it asks where the library names the keys, and checks it as strictly', () => {
    const parallel = parallelFlow;
    const [size, region] = parallel.rounds[0]!;
    const known = { ...parallel.arguments };
    const asked = (requests: Record<string, unknown>) =>
      json({ jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', inputRequests: requests } });
    const both = {
      '__main__:ask_size': elicit(size!.message(known), size!.schema),
      '__main__:ask_region': elicit(region!.message(known), region!.schema),
    };
    const reading = readRound(parallel, 0, 1, asked(both), { ...known }, 'library');
    expect(reading.kind).to.equal('ask');
    if (reading.kind === 'ask') expect(Object.keys(reading.next.inputResponses!)).to.deep.equal(Object.keys(both));
    // The same keys are refused where the flow names them.
    expect(readRound(parallel, 0, 1, asked(both), { ...known }, 'flow').kind).to.equal('error');
    const twice = { a: both['__main__:ask_size'], b: both['__main__:ask_size'] };
    const one = { a: both['__main__:ask_size'] };
    const wrongMessage = { ...both, '__main__:ask_region': elicit('Where?', region!.schema) };
    for (const requests of [twice, one, wrongMessage]) {
      expect(readRound(parallel, 0, 1, asked(requests), { ...known }, 'library').kind).to.equal('error');
    }
  });

  it('reads the field a form question asks, only when it asks exactly one', () => {
    expect(askedField(elicit('?', { type: 'object', properties: { size: {} } }))).to.equal('size');
    expect(askedField(elicit('?', { type: 'object', properties: { a: {}, b: {} } }))).to.equal(undefined);
    expect(askedField({ method: 'roots/list' })).to.equal(undefined);
  });

  it('finds the response for the request in an SSE stream', () => {
    const body = Buffer.from(
      'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n' +
        'event: message\ndata: {"jsonrpc":"2.0","id":3,"result":{"ok":true}}\n\n',
    );
    expect(responseMessage('text/event-stream', body, 3)).to.deep.equal({
      jsonrpc: '2.0',
      id: 3,
      result: { ok: true },
    });
  });
});
