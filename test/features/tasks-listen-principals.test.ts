/**
 * subscriptions/listen never follows another principal's task: asked for one, the
 * acknowledgment leaves it out, exactly like an unknown id, and not one notification of it
 * arrives, though it changes while the stream is open and the stream ends only after it did.
 */
import { expect } from 'chai';
import { staticBearerTokens } from '../../server/http/index.js';
import { longStepTool, LONG_STEP } from '../fixtures/long-step-tools.js';
import { holdListen } from '../helpers/listen-streams.js';
import { callTool } from '../helpers/mcp-http.js';
import { resultOf, TASK_CLIENT, taskRpc, waitForTask } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

const ALICE = 'token-for-alice-0123456789';
const MALLORY = 'token-for-mallory-01234567';
const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe("subscriptions/listen and another principal's task", function () {
  this.timeout(30_000);
  let server: RunningServer;

  before(async () => {
    server = await startTestServer({
      tools: [longStepTool],
      docs: false,
      authenticate: staticBearerTokens(
        new Map([
          [ALICE, 'alice'],
          [MALLORY, 'mallory'],
        ]),
      ),
    });
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  const start = async (token: string) =>
    resultOf(await callTool(server.url, LONG_STEP, {}, {}, { capabilities: TASK_CLIENT, ...as(token) }))
      .taskId as string;

  it('acknowledges it as not followed, and sends nothing of it while it changes', async () => {
    const alices = await start(ALICE);
    const mallorys = await start(MALLORY);
    const listen = await holdListen(
      server.url,
      { taskIds: [alices, mallorys] },
      { headers: { authorization: `Bearer ${MALLORY}` } },
    );
    expect(listen.status).to.equal(200);
    expect(listen.first.params.notifications).to.deep.equal({ taskIds: [mallorys] });
    // Alice's task changes (to cancelled) while Mallory's stream is open...
    resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId: alices }, as(ALICE)));
    await waitForTask(server.url, alices, (t) => t.status === 'cancelled', as(ALICE));
    // ...and only then does Mallory's own task end, which ends her stream: everything is in.
    resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId: mallorys }, as(MALLORY)));
    const received = await listen.ended;
    const tasks = received.filter((m) => typeof m !== 'string' && m.method === 'notifications/tasks');
    expect(tasks.map((m) => m.params.status).at(-1)).to.equal('cancelled');
    expect(tasks.every((m) => m.params.taskId === mallorys)).to.equal(true);
  });
});
