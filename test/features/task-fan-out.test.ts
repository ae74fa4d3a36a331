/**
 * Many listeners on one task over HTTP: a change is read once for all of them, and each gets the
 * whole detailed task. Before, every listener re-read the record and serialized the task itself:
 * with 100 listeners on a task holding a 900 KB argument, an honest request from elsewhere waited
 * 14.7 s and one re-ask took the server from 100 MB to 1.09 GB.
 */
import { expect } from 'chai';
import { MemoryTaskStore, type TaskRecord } from '../../server/engine/index.js';
import { holdListen, type HeldListen } from '../helpers/listen-streams.js';
import { callTool } from '../helpers/mcp-http.js';
import { isStatus, resultOf, TASK_CLIENT, taskRpc, waitForTask } from '../helpers/tasks.js';
import { startTestServer, type RunningServer } from '../helpers/test-server.js';

class CountingStore extends MemoryTaskStore {
  reads = 0;
  override async get(taskId: string): Promise<TaskRecord | undefined> {
    this.reads += 1;
    return super.get(taskId);
  }
}

describe('task notifications to many listeners', function () {
  this.timeout(30_000);
  let server: RunningServer;
  const store = new CountingStore();
  const held: HeldListen[] = [];

  before(async () => {
    server = await startTestServer({ tasks: { store }, longLived: { listen_streams: { perClient: 32 } } });
  });
  after(async () => {
    for (const listen of held) listen.close();
    await server.baton.close();
    await server.close();
  });

  it('reads a change once for twelve listeners, each of which gets the detailed task', async () => {
    const created = resultOf(
      await callTool(server.url, 'ship-release', { service: 'api', version: '1' }, {}, { capabilities: TASK_CLIENT }),
    );
    const taskId = created.taskId;
    await waitForTask(server.url, taskId, isStatus('input_required'));
    for (let i = 0; i < 12; i++) held.push(await holdListen(server.url, { taskIds: [taskId] }));
    // Each stream has its acknowledgment and the task's current state: nothing more is read for them.
    const current = (listen: HeldListen) =>
      listen.received.filter((m) => typeof m !== 'string' && m.method === 'notifications/tasks');
    for (const listen of held) {
      const deadline = Date.now() + 5000;
      while (current(listen).length < 1 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    }
    store.reads = 0;
    resultOf(await taskRpc(server.url, 'tasks/cancel', { taskId }));
    const ends = await Promise.all(held.map((listen) => listen.ended));
    for (const received of ends) {
      const last = received.filter((m) => typeof m !== 'string' && m.method === 'notifications/tasks').at(-1);
      expect(last.params.status).to.equal('cancelled');
      expect(last.params.taskId).to.equal(taskId);
    }
    // tasks/cancel reads the record once to find it, the listeners once between them.
    expect(store.reads).to.be.at.most(3);
  });
});
