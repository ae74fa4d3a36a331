/**
 * A task's first step on Redis and BullMQ runs on the claim the task was stored with
 * (task-claims.ts): the record is written once more, at the step's question, not first to claim
 * it; the timeline still says where the step started.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { BullMqTaskQueue, RedisTaskStore } from '../../server/engine/index.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { benchTaskTool } from '../../bench/tools/bench-task.js';
import { createTask, isStatus, waitForTask } from '../helpers/tasks.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';

describe("a task's first step on Redis", function () {
  this.timeout(60_000);
  let redis: RunningRedis | undefined;
  let raw: Redis;
  let server: RunningServer | undefined;
  let store: RedisTaskStore;
  const keyRing = testKeyRing();

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis();
    raw = new Redis(redis.url);
    const url = redis.url;
    store = new RedisTaskStore({ url, keyRing });
    server = await startTestServer({
      keyRing,
      tools: [benchTaskTool],
      tasks: { store, queue: new BullMqTaskQueue({ url }) },
    });
  });
  after(async () => {
    await server?.baton.close();
    await server?.close();
    raw?.disconnect();
    await redis?.stop();
  });

  it('writes the task once to reach its question, with no write to claim it', async () => {
    // A task whose first step goes straight to its question: no progress written on the way.
    const created = await createTask(server!.url, 'bench-task', {});
    const asking = await waitForTask(server!.url, created.taskId, isStatus('input_required'));
    expect(asking.status).to.equal('input_required');
    // Revision 1 is the create; a claim of its own would have made the question revision 3.
    expect(await raw.hget(`baton:task:${created.taskId}`, 'rev')).to.equal('2');
    const entries = (await store.get(created.taskId))?.history?.entries ?? [];
    expect(entries.map((entry) => entry.e)).to.deep.equal(['created', 'start', 'end']);
    expect(entries[1]!.i).to.be.a('string').that.is.not.empty;
    expect(entries[2]).to.include({ x: 'asked', i: entries[1]!.i });
  });
});
