/**
 * Task expiry across a Redis fleet: a task carries no expiry job of its own (its deadline is kept
 * with its record), and once its ttl runs out another instance's expiry sweep ends it and announces
 * it, though the instance that created it is gone and nobody reads the task.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { BullMqTaskQueue, RedisTaskStore } from '../../server/engine/index.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { createTask, isStatus, notificationsAfter, waitForTask } from '../helpers/tasks.js';
import { startTestServer, testKeyRing, type RunningServer } from '../helpers/test-server.js';

describe('task expiry on Redis', function () {
  this.timeout(60_000);
  let redis: RunningRedis | undefined;
  let raw: Redis;
  const servers: RunningServer[] = [];
  const keyRing = testKeyRing();
  let now = 0;

  const start = async () => {
    const url = redis!.url;
    const server = await startTestServer({
      keyRing,
      clock: () => now,
      tasks: { ttlMs: 60_000, store: new RedisTaskStore({ url, keyRing }), queue: new BullMqTaskQueue({ url }) },
    });
    servers.push(server);
    return server;
  };
  const stop = async (server: RunningServer) => {
    await server.baton.close();
    await server.close();
  };

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis();
    raw = new Redis(redis.url);
  });
  after(async () => {
    for (const server of servers) await stop(server).catch(() => {});
    raw?.disconnect();
    await redis?.stop();
  });

  it('ends a task on another instance once its ttl runs out, with no job of its own', async () => {
    // Redis deletes records by this clock's times (PEXPIREAT): it starts at the wall clock's.
    now = Date.now();
    const creator = await start();
    const survivor = await start();
    const created = await createTask(creator.url, 'ship-release', { service: 'a', version: '1', bakeSeconds: 3600 });
    // Its first step has run to the release's approval, a question: nothing is due later.
    expect((await waitForTask(creator.url, created.taskId, isStatus('input_required'))).status).to.equal(
      'input_required',
    );
    const delayed = await raw.zrange('bull:baton-tasks:delayed', 0, -1);
    expect(delayed, 'delayed jobs (an expiry job was one)').to.deep.equal([]);

    await stop(creator);
    const notes = await notificationsAfter(survivor.url, [created.taskId], () => (now += 61_000));
    expect(notes.at(-1)).to.include({ taskId: created.taskId, status: 'failed' });
    expect(notes.at(-1).statusMessage).to.match(/expired/);
  });
});
