/**
 * A round that settles without waiting is answered by the dispatcher without a promise, so the
 * transport writes it in the same pass (no microtask between the layers); a round that waits on
 * invoked work still answers through a promise. Errors thrown on the way are answered exactly as
 * rejected ones were.
 */
import { expect } from 'chai';
import { assign, fromPromise, setup } from 'xstate';
import { createMcpService, type McpService } from '../../server/create-mcp-service.js';
import { askForm, Cancellation, defineTool, formContent, silentLogger } from '../../server/engine/index.js';
import type { Dispatched } from '../../server/protocol/index.js';
import { requestMeta } from '../helpers/mcp-http.js';
import { testKeyRing } from '../helpers/test-server.js';

const ask = defineTool({
  name: 'ask',
  description: 'Asks one question, then answers.',
  inputSchema: { type: 'object' },
  machine: setup({ types: {} as { context: { name: string } } }).createMachine({
    initial: 'name',
    context: { name: 'nobody' },
    states: {
      name: askForm({
        key: 'name',
        message: 'Your name?',
        schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        onAccept: {
          target: 'done',
          actions: assign({ name: ({ event }) => formContent<{ name: string }>(event).name }),
        },
        onDecline: 'done',
      }),
      done: { type: 'final' },
    },
    output: ({ context }) => context.name,
  }),
});

const waits = defineTool({
  name: 'waits',
  description: 'Waits on invoked work, then answers.',
  inputSchema: { type: 'object' },
  machine: setup({ actors: { work: fromPromise(async () => 'worked') } }).createMachine({
    initial: 'working',
    states: {
      working: { invoke: { src: 'work', onDone: 'done' } },
      done: { type: 'final' },
    },
    output: () => 'worked',
  }),
});

describe('answers of rounds that settle without waiting (dispatcher)', () => {
  let service: McpService;
  let nextId = 1;

  before(() => {
    service = createMcpService({ tools: [ask, waits], keyRing: testKeyRing(), logger: silentLogger });
  });
  after(() => service.close());

  function call(params: Record<string, unknown>): Dispatched | Promise<Dispatched> {
    return service.dispatcher.dispatch(
      {
        jsonrpc: '2.0',
        id: nextId++,
        method: 'tools/call',
        params: { ...params, _meta: requestMeta({ elicitation: {} }) },
      },
      { principal: { id: 'alice', authenticated: true }, cancellation: new Cancellation() },
    );
  }

  function resultOf(dispatched: Dispatched | Promise<Dispatched>): Record<string, any> {
    expect(dispatched).to.not.be.instanceOf(Promise);
    const settled = dispatched as Dispatched;
    if (settled.type !== 'response' || !('result' in settled.response)) throw new Error(JSON.stringify(settled));
    return settled.response.result as Record<string, any>;
  }

  it('asks and answers a question without a promise', () => {
    const asked = resultOf(call({ name: 'ask', arguments: {} }));
    expect(asked.resultType).to.equal('input_required');
    const answered = resultOf(
      call({
        name: 'ask',
        arguments: {},
        requestState: asked.requestState,
        inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
      }),
    );
    expect(answered.resultType, JSON.stringify(answered)).to.equal('complete');
    expect(answered.isError, JSON.stringify(answered)).to.not.equal(true);
    expect(answered.content).to.deep.equal([{ type: 'text', text: 'Ada' }]);
  });

  it('answers a round that waits on invoked work through a promise', async () => {
    const dispatched = call({ name: 'waits', arguments: {} });
    expect(dispatched).to.be.instanceOf(Promise);
    const settled = await dispatched;
    expect(settled.type === 'response' && 'result' in settled.response && settled.response.result).to.deep.include({
      resultType: 'complete',
      content: [{ type: 'text', text: 'worked' }],
    });
  });

  it('answers an error thrown on the way (an unknown tool, a forged state) as an error response, at once', () => {
    for (const params of [
      { name: 'nope', arguments: {} },
      { name: 'ask', arguments: {}, requestState: 'b1.k.forged', inputResponses: {} },
    ]) {
      const dispatched = call(params);
      expect(dispatched).to.not.be.instanceOf(Promise);
      const settled = dispatched as Dispatched;
      expect(settled.type).to.equal('response');
      if (settled.type !== 'response') return;
      expect(settled.httpStatus).to.equal(200);
      expect('error' in settled.response && settled.response.error.code).to.equal(-32602);
    }
  });
});
