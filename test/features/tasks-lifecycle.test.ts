/**
 * The tasks extension over real HTTP, one Baton with the default in-memory store and queue:
 * every status transition, partial and stale answers, unique keys, cancel in every phase,
 * principal isolation, and a client that did not declare the extension.
 */
import { expect } from 'chai';
import { assign, createMachine, setup } from 'xstate';
import { askForm, defineTool, formContent, startsTask, type AnswerEvent } from '../../server/engine/index.js';
import { staticBearerTokens } from '../../server/http/index.js';
import { callTool, rpc } from '../helpers/mcp-http.js';
import { TASKS_EXTENSION } from '../../server/engine/index.js';
import { getTask, isStatus, resultOf, TASK_CLIENT, taskRpc, waitForTask } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { exampleTools, createMemoryVault } from '../../machines/index.js';
import { countingShipRelease } from '../helpers/counting-ship-release.js';

/** Two questions at once inside a task; the second is re-asked until its answer is at least 10. */
const twoQuestions = defineTool({
  name: 'two-questions',
  description: 'Asks two questions at once inside a task.',
  inputSchema: { type: 'object' },
  task: 'optional',
  machine: setup({ types: {} as { context: { n: number; name: string }; events: AnswerEvent } }).createMachine({
    id: 'twoQuestions',
    initial: 'asking',
    context: { n: 0, name: '' },
    output: ({ event }) => event.output,
    states: {
      asking: startsTask({
        type: 'parallel',
        onDone: 'done',
        states: {
          name: {
            initial: 'ask',
            states: {
              ask: askForm({
                key: 'name',
                message: 'Name?',
                schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
                onAccept: {
                  target: 'ok',
                  actions: assign({ name: ({ event }) => formContent<{ name: string }>(event).name }),
                },
                onDecline: 'ok',
              }),
              ok: { type: 'final' },
            },
          },
          number: {
            initial: 'ask',
            states: {
              ask: askForm({
                key: 'number',
                message: 'A number of at least 10?',
                schema: { type: 'object', properties: { n: { type: 'number', minimum: 10 } }, required: ['n'] },
                onAccept: { target: 'ok', actions: assign({ n: ({ event }) => formContent<{ n: number }>(event).n }) },
                onDecline: 'ok',
              }),
              ok: { type: 'final' },
            },
          },
        },
      }),
      done: { type: 'final', output: ({ context }) => `${context.name}:${context.n}` },
    },
  }),
});

/** Optional task: a short timer, so a client without tasks gets the answer synchronously. */
const shortWork = defineTool({
  name: 'short-work',
  description: 'Works for a moment.',
  inputSchema: { type: 'object' },
  task: 'optional',
  machine: createMachine({
    id: 'shortWork',
    initial: 'working',
    output: ({ event }) => event.output,
    states: { working: { after: { 50: 'done' } }, done: { type: 'final', output: 'worked' } },
  }),
});

describe('tasks over HTTP (in-memory store)', () => {
  let server: RunningServer;
  const counted = countingShipRelease({ stepMs: 2000 });
  const tokens = new Map([
    ['token-for-alice-0123456789', 'alice'],
    ['token-for-mallory-01234567', 'mallory'],
  ]);
  const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  const alice = as('token-for-alice-0123456789');
  const mallory = as('token-for-mallory-01234567');

  before(async () => {
    const examples = exampleTools({ publicUrl: 'http://127.0.0.1:0', vault: createMemoryVault() });
    server = await startTestServer({
      tools: [...examples, twoQuestions, shortWork, defineTool({ ...counted.tool, name: 'counted-ship' })],
      docs: false,
      authenticate: staticBearerTokens(tokens),
      tasks: { pollIntervalMs: 250 },
    });
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  const ship = (bakeSeconds = 1, options = alice) =>
    callTool(
      server.url,
      'ship-release',
      { service: 'billing', version: '2.5.0', bakeSeconds },
      {},
      {
        capabilities: TASK_CLIENT,
        ...options,
      },
    );

  it('advertises the extension in discover', async () => {
    const result = resultOf(await rpc(server.url, 'server/discover', {}, alice));
    expect(result.capabilities.extensions).to.deep.equal({ [TASKS_EXTENSION]: {} });
  });

  it('runs ship-release as a task: working with progress, input_required, working again, completed', async () => {
    const created = resultOf(await ship());
    expect(created).to.include({ resultType: 'task', status: 'working', ttlMs: 24 * 3600 * 1000, pollIntervalMs: 250 });
    expect(created.taskId).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(created).to.not.have.any.keys('result', 'error', 'inputRequests', 'requestState');
    expect(Date.parse(created.createdAt)).to.be.closeTo(Date.now(), 5000);
    // Durable before it was announced: the first poll finds it.
    expect((await getTask(server.url, created.taskId, alice)).taskId).to.equal(created.taskId);

    const building = await waitForTask(
      server.url,
      created.taskId,
      (t) => /Building/.test(t.statusMessage ?? ''),
      alice,
    );
    expect(building.status).to.equal('working');
    const asking = await waitForTask(server.url, created.taskId, isStatus('input_required'), alice);
    expect(asking.resultType).to.equal('complete');
    expect(Object.keys(asking.inputRequests)).to.deep.equal(['approve']);
    expect(asking.inputRequests.approve.method).to.equal('elicitation/create');
    expect(asking.statusMessage).to.equal('Waiting for input: approve');

    const ack = resultOf(
      await taskRpc(
        server.url,
        'tasks/update',
        {
          taskId: created.taskId,
          inputResponses: { approve: { action: 'accept', content: { approve: true, approver: 'ada' } } },
        },
        alice,
      ),
    );
    expect(ack).to.have.keys('resultType', '_meta');
    expect(ack.resultType).to.equal('complete');
    const baking = await waitForTask(server.url, created.taskId, (t) => /Baking/.test(t.statusMessage ?? ''), alice);
    expect(baking.status).to.equal('working');
    const done = await waitForTask(server.url, created.taskId, isStatus('completed'), alice);
    expect(done.status).to.equal('completed');
    expect(done.result.structuredContent).to.include({ shipped: true, approvedBy: 'ada' });
    expect(done.result.structuredContent.promotion).to.contain(created.taskId);
    expect(done).to.not.have.any.keys('inputRequests', 'error');
  });

  it('refuses a required-task tool to a client without the extension with -32021 naming it', async () => {
    const response = await ship(1, { ...alice, capabilities: { elicitation: {} } } as any);
    expect(response.body.error.code).to.equal(-32021);
    expect(response.body.error.data.requiredCapabilities.extensions).to.have.key(TASKS_EXTENSION);
    expect(response.body.error.message).to.contain(TASKS_EXTENSION);
  });

  it('runs an optional-task tool synchronously for a client without the extension', async () => {
    const result = resultOf(await callTool(server.url, 'short-work', {}, {}, { ...alice, capabilities: {} }));
    expect(result.resultType).to.equal('complete');
    expect(result.content[0].text).to.equal('worked');
  });

  it('refuses tasks/* from a client that did not declare the extension with -32021', async () => {
    const { taskId } = resultOf(await ship(60));
    for (const [method, extra] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: {} }],
      ['tasks/cancel', {}],
    ] as const) {
      const response = await rpc(
        server.url,
        method,
        { taskId, ...extra },
        { ...alice, capabilities: { elicitation: {} } },
      );
      expect(response.body.error?.code, method).to.equal(-32021);
    }
    resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId }, alice));
  });

  it('keeps partial answers, drops unknown keys, and gives a re-asked question a new key', async () => {
    const { taskId } = resultOf(
      await callTool(server.url, 'two-questions', {}, {}, { capabilities: TASK_CLIENT, ...alice }),
    );
    let task = await waitForTask(server.url, taskId, isStatus('input_required'), alice);
    expect(Object.keys(task.inputRequests)).to.deep.equal(['name', 'number']);

    const update = (inputResponses: Record<string, unknown>) =>
      taskRpc(server.url, 'tasks/update', { taskId, inputResponses }, alice).then(resultOf);
    await update({ name: { action: 'accept', content: { name: 'ada' } }, nonsense: { action: 'accept' } });
    task = await getTask(server.url, taskId, alice);
    expect(task.status).to.equal('input_required');
    expect(Object.keys(task.inputRequests)).to.deep.equal(['number']);

    // An answer the schema refuses: the question is asked again under a new key, with the reason.
    await update({ number: { action: 'accept', content: { n: 3 } } });
    task = await waitForTask(
      server.url,
      taskId,
      (t) => t.status === 'input_required' && 'number.2' in t.inputRequests,
      alice,
    );
    expect(Object.keys(task.inputRequests)).to.deep.equal(['number.2']);
    expect(task.inputRequests['number.2'].params.message).to.match(/not accepted/);

    // The old key is spent: answering it changes nothing.
    await update({ number: { action: 'accept', content: { n: 12 } } });
    expect(Object.keys((await getTask(server.url, taskId, alice)).inputRequests)).to.deep.equal(['number.2']);
    await update({ 'number.2': { action: 'accept', content: { n: 12 } } });
    const done = await waitForTask(server.url, taskId, isStatus('completed'), alice);
    expect(done.result.content[0].text).to.equal('ada:12');
  });

  it('cancels a working task (its running step is stopped), a waiting task, and acks a terminal one', async () => {
    // A build of long steps, counted: its abort is the positive signal that no progress can follow.
    const working = resultOf(
      await callTool(
        server.url,
        'counted-ship',
        { service: 'billing', version: '2.5.0', bakeSeconds: 60 },
        {},
        { capabilities: TASK_CLIENT, ...alice },
      ),
    );
    await waitForTask(server.url, working.taskId, (t) => /Building/.test(t.statusMessage ?? ''), alice);
    expect(resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId: working.taskId }, alice))).to.not.have.any.keys(
      'taskId',
      'status',
    );
    const stopped = await waitForTask(server.url, working.taskId, isStatus('cancelled'), alice);
    expect(stopped.status).to.equal('cancelled');
    const message = stopped.statusMessage;
    expect(counted.counter.buildsAborted).to.equal(1);
    expect((await getTask(server.url, working.taskId, alice)).statusMessage).to.equal(message);

    const waiting = resultOf(await ship(60));
    await waitForTask(server.url, waiting.taskId, isStatus('input_required'), alice);
    resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId: waiting.taskId }, alice));
    expect((await getTask(server.url, waiting.taskId, alice)).status).to.equal('cancelled');

    // Terminal: the same empty ack, and the status never changes again.
    resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId: waiting.taskId }, alice));
    const late = resultOf(
      await taskRpc(
        server.url,
        'tasks/update',
        { taskId: waiting.taskId, inputResponses: { approve: { action: 'accept', content: { approve: true } } } },
        alice,
      ),
    );
    expect(late.resultType).to.equal('complete');
    expect((await getTask(server.url, waiting.taskId, alice)).status).to.equal('cancelled');
  });

  it("answers another principal's task exactly like an unknown one", async () => {
    const { taskId } = resultOf(await ship(60));
    for (const id of [taskId, 'no-such-task-0000000000']) {
      for (const [method, extra] of [
        ['tasks/get', {}],
        ['tasks/update', { inputResponses: {} }],
        ['tasks/cancel', {}],
      ] as const) {
        const response = await taskRpc(server.url, method, { taskId: id, ...extra }, mallory);
        expect(response.status).to.equal(200);
        expect(response.body.error, `${method} ${id}`).to.deep.equal({
          code: -32602,
          message: 'Failed to retrieve task: Task not found',
        });
      }
    }
    // Mallory's cancel did nothing.
    expect((await getTask(server.url, taskId, alice)).status).to.not.equal('cancelled');
    resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId }, alice));
  });

  it('checks Mcp-Name against the task id (-32020, HTTP 400)', async () => {
    const { taskId } = resultOf(await ship(60));
    const response = await taskRpc(
      server.url,
      'tasks/get',
      { taskId },
      { ...alice, headers: { ...alice.headers, 'mcp-name': 'other' } },
    );
    expect(response.status).to.equal(400);
    expect(response.body.error.code).to.equal(-32020);
    resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId }, alice));
  });
});
