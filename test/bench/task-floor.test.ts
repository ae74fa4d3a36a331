import type { Socket } from 'node:net';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { measureTaskFloor } from '../../bench/tasks/task-floor.js';
import { hasProcUsage } from '../../bench/targets/proc-usage.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';

/** Sockets of this process still connected to `port`. */
function openSockets(port: number): number {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.filter((h) => (h as Socket).remotePort === port && !(h as Socket).destroyed).length;
}

describe('bench task floor', function () {
  this.timeout(60_000);
  let redis: RunningRedis | undefined;

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  it('adds and completes empty BullMQ jobs and reads task hashes, directly and behind bare Koa, closing what it opened', async () => {
    const seed = new Redis(redis!.url);
    const keys = Array.from({ length: 20 }, (_, i) => `bench:task:t${i}`);
    for (const key of keys) await seed.hset(key, 'rev', '1', 'body', 'x'.repeat(600));
    seed.disconnect();
    const client = new Redis(redis!.url);
    const floor = await measureTaskFloor(redis!.url, keys, 0.3, { pid: redis!.pid, client }).finally(() =>
      client.disconnect(),
    );
    expect(floor.jobs.errors).to.equal(0);
    // Jobs count only once a worker completed them.
    expect(floor.jobs.completedPerSecond).to.be.greaterThan(0);
    expect(floor.jobs.perSecond).to.be.at.most(floor.jobs.completedPerSecond);
    expect(floor.hashReads.errors).to.equal(0);
    expect(floor.hashReads.perSecond).to.be.greaterThan(floor.jobs.perSecond);
    expect(floor.hashReads.cpuMicrosPerOp).to.be.greaterThan(0);
    if (hasProcUsage()) expect(floor.hashReads.redisCpuMicrosPerOp).to.be.greaterThan(0);
    // Counted from Redis's own counters: a read is one HMGET, and nothing else.
    expect(floor.hashReads.redisPerOp!.commands).to.be.closeTo(1, 0.05);
    expect(floor.hashReads.redisPerOp!.mix[0]![0]).to.equal('hmget');
    expect(floor.hashReads.redisPerOp!.bytes).to.be.greaterThan(600);
    expect(floor.jobs.redisPerOp!.commands).to.be.greaterThan(1);
    // Behind bare Koa: the same job and read, each answering an HTTP request of Baton's bench.
    expect(floor.httpJobs!.errors).to.equal(0);
    expect(floor.httpJobs!.completedPerSecond).to.be.greaterThan(0);
    expect(floor.httpJobs!.perSecond).to.be.at.most(floor.httpJobs!.completedPerSecond);
    expect(floor.httpJobs!.redisPerOp!.mix.map(([name]) => name)).to.include.members(['evalsha', 'xadd']);
    expect(floor.httpHashReads!.errors).to.equal(0);
    expect(floor.httpHashReads!.perSecond).to.be.greaterThan(0);
    expect(floor.httpHashReads!.redisPerOp!.commands).to.be.closeTo(1, 0.05);
    // The HTTP exchange costs this process CPU on top of the read it carries.
    expect(floor.httpHashReads!.cpuMicrosPerOp).to.be.greaterThan(floor.hashReads.cpuMicrosPerOp!);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(openSockets(redis!.port)).to.equal(0);
  });

  it('reads hashes that exist, or counts the reads as errors', async () => {
    const floor = await measureTaskFloor(redis!.url, ['bench:task:missing'], 0.2);
    expect(floor.hashReads.perSecond).to.equal(0);
    expect(floor.hashReads.errors).to.be.greaterThan(0);
    // Behind Koa, a read that finds nothing is answered with an error, and counted as one.
    expect(floor.httpHashReads!.perSecond).to.equal(0);
    expect(floor.httpHashReads!.errors).to.be.greaterThan(0);
    const refused = await measureTaskFloor(redis!.url, [], 0.2).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(refused?.message).to.match(/no stored task/);
  });
});
