import { expect } from 'chai';
import { assign, createMachine, fromPromise, setup } from 'xstate';
import {
  runConversation,
  scrubRandomIds,
  shortenState,
  toSequenceDiagram,
  type DocumentedFlow,
} from '../../server/docs-site/index.js';
import { askForm, defineTool, formContent, type AnswerEvent } from '../../server/engine/index.js';
import { releaseTool } from '../../machines/examples/release.js';
import { provisionDatabaseTool } from '../../machines/examples/provision-database.js';
import { createConnectPaymentsTool } from '../../machines/examples/connect-payments.js';
import { createMemoryVault } from '../../machines/examples/secret-vault.js';
import { conformanceFixtures } from '../../machines/conformance/index.js';

const tool = (definition: ReturnType<typeof defineTool>): DocumentedFlow => ({ kind: 'tool', definition });
const NO_ARGS = { type: 'object', additionalProperties: false };

/** A loop that only ends when the answer is "stop", to test answer choice and round limits. */
function loopTool(exampleAnswers?: Record<string, unknown>) {
  const machine = setup({
    types: {} as { events: AnswerEvent },
    guards: { saidStop: ({ event }) => formContent<{ word: string }>(event).word === 'stop' },
  }).createMachine({
    id: 'loop',
    initial: 'ask',
    output: ({ event }) => event.output,
    states: {
      ask: askForm({
        key: 'word',
        message: 'Say stop.',
        schema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
        onAccept: [
          { guard: 'saidStop', target: 'done' },
          { target: 'ask', reenter: true },
        ],
        onDecline: 'done',
      }),
      done: { type: 'final', output: 'stopped' },
    },
  });
  return defineTool({
    name: 'loop',
    description: 'Asks until told to stop.',
    inputSchema: NO_ARGS,
    machine,
    ...(exampleAnswers ? { exampleAnswers } : {}),
  });
}

describe('runConversation', () => {
  it('runs a multi-round tool to its result, recording where the machine waited', async () => {
    const conversation = await runConversation(tool(releaseTool));
    expect(conversation.outcome).to.equal('complete');
    expect(conversation.rounds.map((r) => r.waitingIn)).to.deep.equal([['pickWindow'], ['confirm'], []]);
    expect(conversation.rounds[0]!.answers).to.deep.equal({ window: { action: 'accept', content: { window: 'now' } } });
    const last = conversation.rounds[2]!.response as unknown as {
      result: { structuredContent: { released: boolean } };
    };
    expect(last.result.structuredContent.released).to.equal(true);
  });

  it('sends each retry with the answers and the requestState of the round before', async () => {
    const { rounds } = await runConversation(tool(provisionDatabaseTool));
    const first = rounds[0]!.response as unknown as { result: { requestState: string } };
    expect(rounds[1]!.request.params.requestState).to.equal(first.result.requestState);
    expect(first.result.requestState).to.match(/^b1\.docs\.[A-Za-z0-9_-]{16}…$/);
    expect(Object.keys(rounds[1]!.request.params.inputResponses as object)).to.deep.equal(['size', 'region']);
    expect(rounds[0]!.waitingIn).to.deep.equal(['collect.size.asking', 'collect.region.asking']);
  });

  it('is deterministic: the same run gives the same exchange, random ids included', async () => {
    const connect = () =>
      createConnectPaymentsTool({ vault: createMemoryVault(), pageUrl: (id) => `http://127.0.0.1:3000/vault/${id}` });
    const a = await runConversation(tool(connect()));
    const b = await runConversation(tool(connect()));
    expect(JSON.stringify(a)).to.equal(JSON.stringify(b));
    expect(JSON.stringify(a)).to.include('/vault/p1.docs.');
  });

  it("uses the tool's exampleActors in place of its own actors", async () => {
    const connect = createConnectPaymentsTool({ vault: createMemoryVault(), pageUrl: (id) => `http://x/${id}` });
    const conversation = await runConversation(tool(connect));
    expect(conversation.outcome).to.equal('complete');
    expect(JSON.stringify(conversation.rounds.at(-1)!.response)).to.include('4242');
    const real = defineTool({ ...connect, exampleActors: { lookupSecret: fromPromise(async () => undefined) } });
    expect((await runConversation(tool(real), { maxRounds: 3 })).outcome).to.equal('unfinished');
  });

  it('takes exampleAnswers in order, one per time the question is asked', async () => {
    const answers = [
      { action: 'accept', content: { word: 'go on' } },
      { action: 'accept', content: { word: 'stop' } },
    ];
    const conversation = await runConversation(tool(loopTool({ word: answers })));
    expect(conversation.outcome).to.equal('complete');
    expect(conversation.rounds).to.have.length(3);
  });

  it('stops a flow that keeps asking after maxRounds', async () => {
    const conversation = await runConversation(tool(loopTool()), { maxRounds: 4 });
    expect(conversation.outcome).to.equal('unfinished');
    expect(conversation.rounds).to.have.length(4);
    expect(toSequenceDiagram(conversation)).to.include('still asking after 4 rounds');
  });

  it('records a JSON-RPC error as the end of the conversation', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Gets stuck.',
      inputSchema: NO_ARGS,
      machine: createMachine({ id: 'b', initial: 'stuck', states: { stuck: {} } }),
    });
    const conversation = await runConversation(tool(broken));
    expect(conversation.outcome).to.equal('error');
    expect(conversation.rounds[0]!.response).to.have.property('error');
  });

  it('runs prompts and resource templates too', async () => {
    const fixtures = conformanceFixtures();
    const prompt = fixtures.prompts.find((p) => p.name === 'test_input_required_result_prompt')!;
    expect((await runConversation({ kind: 'prompt', definition: prompt })).outcome).to.equal('complete');
    const template = fixtures.resources.find((r) => r.kind === 'template')!;
    const read = await runConversation({ kind: 'resource', definition: template });
    expect(read.rounds[0]!.request.params.uri).to.equal('test://template/123/data');
    expect(read.outcome).to.equal('complete');
  });
});

describe('scrubRandomIds and shortenState', () => {
  it('replaces each UUID by a stand-in, the same UUID by the same one', () => {
    const a = 'f47ac10b-58cc-4372-a567-0e02b2c3d479';
    const b = '9b2e6f1c-1d2a-4a4e-8f7e-3c2b1a0f9e8d';
    expect(scrubRandomIds({ x: `${a}/${b}`, y: a })).to.deep.equal({
      x: '00000000-0000-4000-8000-000000000001/00000000-0000-4000-8000-000000000002',
      y: '00000000-0000-4000-8000-000000000001',
    });
  });

  it('keeps enough of a sealed state to recognise it', () => {
    expect(shortenState(`b1.docs.${'A'.repeat(100)}`)).to.equal(`b1.docs.${'A'.repeat(16)}…`);
    expect(shortenState('short')).to.equal('short');
  });
});

describe('toSequenceDiagram', () => {
  it('shows each round: the call, where the machine waits, the question and the answer', async () => {
    const text = toSequenceDiagram(await runConversation(tool(releaseTool)));
    const lines = text.split('\n').map((l) => l.trim());
    expect(lines.slice(0, 4)).to.deep.equal([
      'sequenceDiagram',
      'participant U as User',
      'participant C as Client',
      'participant S as Baton',
    ]);
    expect(lines).to.include.members([
      'Note over C,S: round 1',
      'C->>S: tools/call release {"service":"billing","version":"2.4.0"}',
      'Note over S: waits in pickWindow',
      'S-->>C: input_required: window',
      'C->>U: When should billing 2.4.0 go out? (window)',
      'U-->>C: accept {"window":"now"}',
      'C->>S: tools/call again + answers (confirm) + requestState',
    ]);
    expect(lines.filter((l) => l.startsWith('Note over C,S: round'))).to.have.length(3);
  });

  it("adds the client's model for sampling, and shows roots as the client's own step", async () => {
    const fixture = conformanceFixtures().tools.find((t) => t.name === 'test_input_required_result_multiple_inputs')!;
    const text = toSequenceDiagram(await runConversation(tool(fixture)));
    expect(text).to.include("participant M as Client's model");
    expect(text).to.include('C->>M: sampling (greeting): Write a greeting.');
    expect(text).to.match(/C->>C: roots\/list \(client_roots\) → roots: file:\/\/\/home\/user\/project/);
  });

  it('notes the page a URL question opens', async () => {
    const connect = createConnectPaymentsTool({ vault: createMemoryVault(), pageUrl: (id) => `http://h/vault/${id}` });
    const text = toSequenceDiagram(await runConversation(tool(connect)));
    expect(text).to.include('Note over U: opens http://h/vault/p1.docs.');
  });

  it('escapes what Mermaid would read as syntax in messages', async () => {
    const machine = setup({ types: {} as { context: { said: string }; events: AnswerEvent } }).createMachine({
      id: 'esc',
      initial: 'ask',
      context: { said: '' },
      output: ({ event }) => event.output,
      states: {
        ask: askForm({
          key: 'q',
          message: 'Pick one; <b>#1</b> %% or not',
          schema: { type: 'object', properties: { q: { type: 'string' } } },
          onAccept: { target: 'done', actions: assign({ said: () => 'x' }) },
          onDecline: 'done',
        }),
        done: { type: 'final', output: 'ok' },
      },
    });
    const text = toSequenceDiagram(
      await runConversation(tool(defineTool({ name: 'esc', description: 'e', inputSchema: NO_ARGS, machine }))),
    );
    expect(text).to.include('C->>U: Pick one#59; #lt;b#gt;#35;1#lt;/b#gt; #37;#37; or not (q)');
  });
});
