import { expect } from 'chai';
import { fromCallback, sendTo, setup, spawnChild } from 'xstate';
import { DEFAULT_ANSWER_MAX_LENGTH } from '../../server/engine/round/answers.js';
import { defineTool } from '../../server/engine/index.js';
import { callTool } from '../helpers/mcp-http.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { askText, countOf, counter, currentXStatePath, onEachXStatePath, text } from '../engine/xstate/rounds.js';

function result(response: { status: number; body: any }) {
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.result;
}

const counting = defineTool({
  name: 'counting',
  description: 'Keeps a child machine spawned by name across rounds',
  inputSchema: { type: 'object' },
  machine: setup({ actors: { counter } }).createMachine({
    id: 'counting',
    initial: 'first',
    entry: spawnChild('counter', { id: 'kid' }),
    output: ({ event }) => event.output,
    states: {
      first: askText('first', { target: 'second', actions: sendTo('kid', { type: 'INC' }) }),
      second: askText('second', 'report'),
      report: { type: 'final', output: ({ self }) => ({ n: countOf(self, 'kid') }) },
      declined: { type: 'final' },
    },
  }),
});

const ticking = defineTool({
  name: 'ticking',
  description: 'Asks while a callback child still runs',
  inputSchema: { type: 'object' },
  machine: setup({ actors: { ticker: fromCallback(() => () => {}) } }).createMachine({
    id: 'ticking',
    initial: 'first',
    entry: spawnChild('ticker', { id: 'ticker' }),
    states: { first: askText('first', 'done'), done: { type: 'final' }, declined: { type: 'final' } },
  }),
});

onEachXStatePath('XState constructs over HTTP', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({
      xstatePath: currentXStatePath(),
      tools: [counting, ticking],
    });
  });
  after(() => server.close());

  it('carries an idle child machine spawned by name from round to round', async () => {
    const r1 = result(await callTool(server.url, 'counting', {}));
    const r2 = result(
      await callTool(
        server.url,
        'counting',
        {},
        { requestState: r1.requestState, inputResponses: { first: text('a') } },
      ),
    );
    const r3 = result(
      await callTool(
        server.url,
        'counting',
        {},
        { requestState: r2.requestState, inputResponses: { second: text('b') } },
      ),
    );
    expect(r3.structuredContent).to.deep.equal({ n: 1 });
  });

  it('answers a tool error at once when a callback child still runs at a question', async () => {
    const r1 = result(await callTool(server.url, 'ticking', {}));
    expect(r1.isError).to.equal(true);
    expect(r1.content[0].text).to.include('child "ticker"');
  });

  it('asks again when a free-text answer is longer than the default maxLength, keeping the state small', async () => {
    const r1 = result(await callTool(server.url, 'counting', {}));
    const long = 'x'.repeat(DEFAULT_ANSWER_MAX_LENGTH + 1);
    const r2 = result(
      await callTool(
        server.url,
        'counting',
        {},
        { requestState: r1.requestState, inputResponses: { first: text(long) } },
      ),
    );
    expect(Object.keys(r2.inputRequests)).to.deep.equal(['first']);
    expect(r2.requestState.length).to.be.below(2_000);
  });
});
