/**
 * Where a request hands over to a task: questions before long work are answered synchronously
 * (multi round-trip requests), and the work itself never starts inside the request: it runs once,
 * in the task.
 */
import { expect } from 'chai';
import { assign, fromPromise, setup } from 'xstate';
import { askForm, defineTool, formContent, type AnswerEvent } from '../../../server/engine/index.js';
import { callTool } from '../../helpers/mcp-http.js';
import { isStatus, resultOf, TASK_CLIENT, waitForTask } from '../../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../../helpers/test-server.js';

describe('handing a round over to a task', () => {
  let server: RunningServer;
  const runs: string[] = [];
  const tool = defineTool({
    name: 'ask-then-work',
    description: 'Asks a name, then works on it.',
    inputSchema: { type: 'object' },
    task: 'optional',
    // It only records its input in this process.
    safeActors: ['work'],
    machine: setup({
      types: {} as { context: { name: string; result: string }; events: AnswerEvent },
      actors: {
        work: fromPromise<string, { name: string }>(async ({ input }) => {
          runs.push(input.name);
          await new Promise((resolve) => setTimeout(resolve, 30));
          return `worked for ${input.name}`;
        }),
      },
    }).createMachine({
      id: 'askThenWork',
      initial: 'ask',
      context: { name: '', result: '' },
      output: ({ event }) => event.output,
      states: {
        ask: askForm({
          key: 'name',
          message: 'Name?',
          schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          onAccept: {
            target: 'work',
            actions: assign({ name: ({ event }) => formContent<{ name: string }>(event).name }),
          },
          onDecline: 'done',
        }),
        work: {
          invoke: {
            src: 'work',
            input: ({ context }) => ({ name: context.name }),
            onDone: { target: 'done', actions: assign({ result: ({ event }) => event.output }) },
          },
        },
        done: { type: 'final', output: ({ context }) => context.result || 'nothing' },
      },
    }),
  });

  before(async () => {
    server = await startTestServer({ tools: [tool] });
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  it('asks synchronously first, then creates the task where the work starts, and runs the work once', async () => {
    const first = resultOf(await callTool(server.url, 'ask-then-work', {}, {}, { capabilities: TASK_CLIENT }));
    expect(first.resultType).to.equal('input_required');
    expect(first.requestState).to.be.a('string');
    const second = resultOf(
      await callTool(
        server.url,
        'ask-then-work',
        {},
        { requestState: first.requestState, inputResponses: { name: { action: 'accept', content: { name: 'ada' } } } },
        { capabilities: TASK_CLIENT },
      ),
    );
    expect(second.resultType).to.equal('task');
    expect(second).to.not.have.any.keys('requestState', 'inputRequests');
    const done = await waitForTask(server.url, second.taskId, isStatus('completed'));
    expect(done.result.content[0].text).to.equal('worked for ada');
    // Once: the request parked the work (a run there would have been a second one).
    expect(runs).to.deep.equal(['ada']);
  });

  it('runs the same machine synchronously, work included, for a client without tasks', async () => {
    runs.length = 0;
    const first = resultOf(await callTool(server.url, 'ask-then-work', {}, {}, { capabilities: { elicitation: {} } }));
    const second = resultOf(
      await callTool(
        server.url,
        'ask-then-work',
        {},
        { requestState: first.requestState, inputResponses: { name: { action: 'accept', content: { name: 'bo' } } } },
        { capabilities: { elicitation: {} } },
      ),
    );
    expect(second.resultType).to.equal('complete');
    expect(second.content[0].text).to.equal('worked for bo');
    expect(runs).to.deep.equal(['bo']);
  });
});
