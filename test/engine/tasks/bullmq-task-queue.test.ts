/**
 * The BullMQ task queue against a real redis-server: the jobs of concurrent calls are added in
 * shared round trips (its connection pipelines them), and every one of them still runs once.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { BullMqTaskQueue } from '../../../server/engine/index.js';
import { REDIS, requireBinaries } from '../../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../../bench/redis/index.js';

describe('BullMqTaskQueue on Redis', function () {
  this.timeout(30_000);
  let redis: RunningRedis | undefined;
  let raw: Redis;
  let queue: BullMqTaskQueue | undefined;

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis();
    raw = new Redis(redis.url);
  });
  after(async () => {
    await queue?.close();
    raw?.disconnect();
    await redis?.stop();
  });

  it('adds the jobs of concurrent calls in a few reads of Redis, and runs each once', async () => {
    queue = new BullMqTaskQueue({ url: redis!.url, name: 'together' });
    const ran: string[] = [];
    queue.start(async (taskId) => {
      ran.push(taskId);
    });
    await queue.depth(); // connected, BullMQ's scripts loaded
    const reads = async () => Number(/total_reads_processed:(\d+)/.exec(await raw.info('stats'))?.[1] ?? NaN);
    const ids = Array.from({ length: 32 }, (_, i) => `t${i}`);
    // The worker polls Redis on its own connections meanwhile: counted apart, by client.
    const addsBefore = await reads();
    await Promise.all(ids.map((id) => queue!.schedule(id, { jobKey: 'start' })));
    const addsTaken = (await reads()) - addsBefore;
    for (let n = 0; n < 200 && ran.length < ids.length; n++) await new Promise((r) => setTimeout(r, 25));
    expect([...ran].sort()).to.deep.equal([...ids].sort());
    // Sent one by one, the 32 adds took a read each and more (the worker's own fetches ride along
    // in the count, which is why this bound is loose); pipelined they go out in one write.
    expect(addsTaken).to.be.below(16);
  });
});
