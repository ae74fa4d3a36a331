/**
 * The rows of docs/xstate.md that work in task mode only, run as tasks over real HTTP: `after` on
 * an input state and on its ancestor (the question is asked, then the timer moves the machine on
 * with no answer), and a delay longer than the round's time budget.
 */
import { expect } from 'chai';
import { createMachine, setup } from 'xstate';
import {
  askForm,
  ConfigurationError,
  defineTool,
  ToolRegistry,
  type AnswerEvent,
} from '../../../server/engine/index.js';
import { callTool } from '../../helpers/mcp-http.js';
import { isStatus, resultOf, TASK_CLIENT, waitForTask } from '../../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../../helpers/test-server.js';
import { currentXStatePath, onEachXStatePath } from './rounds.js';

const question = askForm({
  key: 'approve',
  message: 'Approve?',
  schema: { type: 'object', properties: { approve: { type: 'boolean' } } },
  onAccept: 'approved',
  onDecline: 'approved',
});

/** `after` on the input state itself: an approval window. */
const windowOnQuestion = defineTool({
  name: 'window-on-question',
  description: 'Asks, and gives up after a while.',
  inputSchema: { type: 'object' },
  task: 'required',
  machine: setup({ types: {} as { events: AnswerEvent } }).createMachine({
    id: 'windowOnQuestion',
    initial: 'asking',
    output: ({ event }) => event.output,
    states: {
      asking: { ...question, after: { 2500: 'expired' } },
      approved: { type: 'final', output: 'approved' },
      expired: { type: 'final', output: 'expired' },
    },
  }),
});

/** `after` on an ancestor of the input state. */
const windowOnAncestor = defineTool({
  name: 'window-on-ancestor',
  description: 'Asks inside a window.',
  inputSchema: { type: 'object' },
  task: 'required',
  machine: setup({ types: {} as { events: AnswerEvent } }).createMachine({
    id: 'windowOnAncestor',
    initial: 'window',
    output: ({ event }) => event.output,
    states: {
      window: {
        after: { 2500: 'expired' },
        initial: 'asking',
        states: {
          asking: askForm({
            key: 'approve',
            message: 'Approve?',
            schema: { type: 'object', properties: { approve: { type: 'boolean' } } },
            onAccept: '#windowOnAncestor.approved',
            onDecline: '#windowOnAncestor.approved',
          }),
        },
      },
      approved: { type: 'final', output: 'approved' },
      expired: { type: 'final', output: 'expired' },
    },
  }),
});

const longDelayMachine = createMachine({
  id: 'longDelay',
  initial: 'waiting',
  output: ({ event }) => event.output,
  states: { waiting: { after: { 2600: 'done' } }, done: { type: 'final', output: 'waited' } },
});

onEachXStatePath('XState constructs that work in task mode only', () => {
  let server: RunningServer;
  before(async () => {
    server = await startTestServer({
      xstatePath: currentXStatePath(),
      tools: [
        windowOnQuestion,
        windowOnAncestor,
        defineTool({
          name: 'long-delay',
          description: 'Waits longer than a round may.',
          inputSchema: { type: 'object' },
          timeBudgetMs: 500,
          task: 'required',
          machine: longDelayMachine,
        }),
      ],
    });
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  for (const name of ['window-on-question', 'window-on-ancestor']) {
    it(`${name}: asks, and the durable timer moves on when nobody answers`, async () => {
      const { taskId } = resultOf(await callTool(server.url, name, {}, {}, { capabilities: TASK_CLIENT }));
      const asking = await waitForTask(server.url, taskId, isStatus('input_required'));
      expect(Object.keys(asking.inputRequests)).to.deep.equal(['approve']);
      const done = await waitForTask(server.url, taskId, isStatus('completed'));
      expect(done.result.content[0].text).to.equal('expired');
    });
  }

  it('runs a delay longer than the round budget as a durable timer', async () => {
    const { taskId } = resultOf(await callTool(server.url, 'long-delay', {}, {}, { capabilities: TASK_CLIENT }));
    expect((await waitForTask(server.url, taskId, isStatus('completed'))).result.content[0].text).to.equal('waited');
  });

  it('refuses the same machines at start-up when the tool does not always run as a task', () => {
    for (const tool of [windowOnQuestion, windowOnAncestor]) {
      expect(() => new ToolRegistry([{ ...tool, task: 'optional' }]), tool.name).to.throw(
        ConfigurationError,
        /run the tool as a task/,
      );
    }
    const long = defineTool({
      name: 'long-delay',
      description: 'Waits.',
      inputSchema: { type: 'object' },
      timeBudgetMs: 500,
      machine: longDelayMachine,
    });
    expect(() => new ToolRegistry([long])).to.throw(ConfigurationError, /time budget/);
  });
});
