import { expect } from 'chai';
import { callToolResult, threeQuestionFlow } from '../../bench/flows/bench-flows.js';
import { readRound, requestBody, responseMessage } from '../../bench/load/mcp-exchange.js';

const json = (message: unknown, status = 200) => ({
  status,
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify(message)),
});

const ask = (key: string, schema: object) => ({
  resultType: 'input_required',
  inputRequests: {
    [key]: { method: 'elicitation/create', params: { mode: 'form', message: '?', requestedSchema: schema } },
  },
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
    expect(body.params._meta['io.modelcontextprotocol/protocolVersion']).to.equal('2026-07-28');
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
      json({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [] } }),
      json({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [], isError: true } }),
      { status: 200, contentType: 'application/json', body: Buffer.from('not json') },
    ];
    for (const reply of cases)
      expect(readRound(flow, 0, 1, reply, known).kind, reply.body.toString()).to.equal('error');
    const afterLast = json({ jsonrpc: '2.0', id: 1, result: ask('window', firstSchema) });
    expect(readRound(flow, 3, 1, afterLast, known).kind).to.equal('error');
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
