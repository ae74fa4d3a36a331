/**
 * Task TTL (an expired task fails, then disappears) with an injected clock, and task status
 * notifications on a real `subscriptions/listen` stream.
 */
import { expect } from 'chai';
import {
  getTask,
  isStatus,
  listenToTasks,
  notificationsAfter,
  resultOf,
  TASK_CLIENT,
  taskRpc,
  waitForTask,
  createTask,
} from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';
import { sseMessages } from '../helpers/sse-events.js';

describe('task expiry', () => {
  let server: RunningServer;
  let now = Date.UTC(2026, 11, 1, 12, 0, 0);

  before(async () => {
    server = await startTestServer({ clock: () => now, tasks: { ttlMs: 60_000 } });
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  it('fails a task once its ttlMs has passed, then answers -32602 for it', async () => {
    const created = await createTask(server.url, 'ship-release', { service: 'a', version: '1', bakeSeconds: 3600 });
    expect(created.ttlMs).to.equal(60_000);
    expect((await getTask(server.url, created.taskId)).status).to.be.oneOf(['working', 'input_required']);
    now += 59_000;
    expect((await getTask(server.url, created.taskId)).status).to.not.equal('failed');
    now += 2_000;
    const expired = await waitForTask(server.url, created.taskId, isStatus('failed'));
    expect(expired.status).to.equal('failed');
    expect(expired.error.code).to.equal(-32603);
    expect(expired.statusMessage).to.match(/expired/);
    now += 5 * 60_000;
    const gone = await taskRpc(server.url, 'tasks/get', { taskId: created.taskId });
    expect(gone.body.error.code).to.equal(-32602);
  });

  it('announces an expiry on subscriptions/listen, though nobody reads the task', async () => {
    const created = await createTask(server.url, 'ship-release', { service: 'b', version: '1', bakeSeconds: 3600 });
    // Once listening, only the expiry sweep can end the task: no request reads it.
    const notes = await notificationsAfter(server.url, [created.taskId], () => (now += 61_000));
    expect(notes.at(-1)).to.include({ taskId: created.taskId, status: 'failed' });
    expect(notes.at(-1).statusMessage).to.match(/expired/);
  });
});

describe('task status notifications on subscriptions/listen', () => {
  let server: RunningServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.baton.close();
    await server.close();
  });

  const listen = (taskIds: string[], capabilities: Record<string, unknown> = TASK_CLIENT) =>
    listenToTasks(server.url, taskIds, { capabilities });

  it('streams the detailed task on each change, as tasks/get would show it, and ends once it is terminal', async () => {
    const { taskId } = await createTask(server.url, 'ship-release', { service: 'a', version: '1', bakeSeconds: 1 });
    const response = await listen([taskId, 'unknown-task-id-00000000']);
    expect(response.headers.get('content-type')).to.contain('text/event-stream');
    const seen: any[] = [];
    let answered = false;
    for await (const message of sseMessages(response)) {
      seen.push(message);
      if (message.method === 'notifications/tasks' && message.params.status === 'input_required' && !answered) {
        answered = true;
        const ack = await taskRpc(server.url, 'tasks/update', {
          taskId,
          inputResponses: { approve: { action: 'accept', content: { approve: true } } },
        });
        resultOf(ack);
      }
    }
    const [ack, ...rest] = seen;
    expect(ack.method).to.equal('notifications/subscriptions/acknowledged');
    // Only the caller's own, existing task is agreed; the unknown one is left out.
    expect(ack.params.notifications).to.deep.equal({ taskIds: [taskId] });
    const notes = rest.filter((m) => m.method === 'notifications/tasks').map((m) => m.params);
    expect(notes.every((n) => n.taskId === taskId)).to.equal(true);
    const statuses = notes.map((n) => n.status);
    expect(statuses).to.include('input_required');
    expect(statuses.at(-1)).to.equal('completed');
    expect(notes.at(-1).result.structuredContent.shipped).to.equal(true);
    // The notification carries what tasks/get would: a CallToolResult of this revision.
    expect(notes.at(-1).result.resultType).to.equal('complete');
    expect(notes.at(-1).statusMessage).to.equal('Completed');
    expect(notes.find((n) => n.status === 'input_required').inputRequests).to.have.key('approve');
    // No progress or log messages on a task stream (tasks.md).
    expect(rest.some((m) => m.method === 'notifications/progress' || m.method === 'notifications/message')).to.equal(
      false,
    );
    // The stream ends with the listen result once nothing more can come.
    expect(rest.at(-1).id).to.equal('listen-1');
    expect((await waitForTask(server.url, taskId, isStatus('completed'))).status).to.equal('completed');
  });

  it('refuses task notifications to a client without the extension (-32021)', async () => {
    const response = await listen(['x'], { elicitation: {} });
    const body = await response.json();
    expect(body.error.code).to.equal(-32021);
  });
});
