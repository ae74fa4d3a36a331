/**
 * The runs of one queue job in one process (job-runs.ts) are handed back latest first, so a stale
 * run ending cannot end the lock renewal of the run that took over from it. Then the same against
 * BullMQ and a real redis-server: the process freezes past the job's lock (as under SIGSTOP), the
 * worker takes its own job again, and the stale run ending must leave the later run's lock alive.
 */
import { expect } from 'chai';
import { Queue } from 'bullmq';
import { BullMqTaskQueue } from '../../../server/engine/index.js';
import { JobRuns } from '../../../server/engine/tasks/job-runs.js';
import { REDIS, requireBinaries } from '../../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../../bench/redis/index.js';
import { gate, type Gate } from './stale-step-harness.js';

async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

describe('JobRuns', () => {
  it('hands a run back only after every later run of the same job', async () => {
    const runs = new JobRuns();
    const [first, second] = [gate(), gate()];
    const handedBack: string[] = [];
    const stale = runs.run('j', () => first.promise).then(() => handedBack.push('stale'));
    const takeover = runs.run('j', () => second.promise).then(() => handedBack.push('takeover'));
    first.open();
    await turns(20);
    expect(handedBack).to.deep.equal([]);
    expect(runs.active('j')).to.equal(2);
    second.open();
    await Promise.all([stale, takeover]);
    expect(handedBack).to.deep.equal(['takeover', 'stale']);
    expect(runs.active('j')).to.equal(0);
  });

  it('waits for runs that start while it waits, and for no other job', async () => {
    const runs = new JobRuns();
    const gates = [gate(), gate(), gate(), gate()];
    const handedBack: string[] = [];
    const track = (name: string, jobId: string, held: Gate) =>
      runs.run(jobId, () => held.promise).then(() => handedBack.push(name));
    const one = track('one', 'j', gates[0]!);
    const two = track('two', 'j', gates[1]!);
    const other = track('other', 'k', gates[3]!);
    gates[0]!.open();
    gates[3]!.open();
    await other;
    const three = track('three', 'j', gates[2]!);
    gates[1]!.open();
    await turns(20);
    expect(handedBack).to.deep.equal(['other']);
    gates[2]!.open();
    await Promise.all([one, two, three]);
    expect(handedBack).to.deep.equal(['other', 'three', 'two', 'one']);
  });

  it('hands back a failed run with its error, in the same order', async () => {
    const runs = new JobRuns();
    const [first, second] = [gate(), gate()];
    const stale = runs.run('j', () => first.promise);
    const takeover = runs.run('j', () => second.promise);
    first.fail();
    second.open();
    await takeover;
    const error = await stale.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(Error);
  });
});

/** Blocks this whole process, timers and sockets included, as SIGSTOP would. */
function freeze(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

async function until(what: string, timeoutMs: number, probe: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('BullMqTaskQueue, a job taken again by the process still running it', function () {
  this.timeout(60_000);
  let redis: RunningRedis | undefined;

  before(async function () {
    requireBinaries(this, REDIS);
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  it("keeps the later run's lock when the stale run ends first", async () => {
    const name = `job-runs-${process.pid}`;
    const lockDurationMs = 1000;
    const queue = new BullMqTaskQueue({ url: redis!.url, name, lockDurationMs });
    const inspect = new Queue(name, { connection: { url: redis!.url } });
    const runs: string[] = [];
    const [stale, takeover] = [gate(), gate()];
    try {
      queue.start(async (_taskId, jobId) => {
        const n = runs.push(jobId);
        if (n === 1) {
          // Frozen past the lock: on waking the worker finds it lost and takes the job again.
          freeze(lockDurationMs * 2.5);
          await stale.promise;
        } else if (n === 2) {
          await takeover.promise;
        }
      });
      await queue.schedule('t1', { jobKey: 'start' });
      await until('the worker takes its own job again', 20_000, () => runs.length >= 2);
      expect(runs).to.deep.equal(['t1.start', 't1.start']);
      stale.open();
      // Were its lock no longer renewed, the later run's job would be handed out again within
      // about two lock durations (lock expiry, then the stalled check): give it five.
      const probeUntil = Date.now() + 5 * lockDurationMs;
      await until('the window passes', 10_000, () => runs.length > 2 || Date.now() > probeUntil);
      expect(runs, 'the job was handed out again: the later run lost its lock').to.have.length(2);
      takeover.open();
      await until('the job completes', 10_000, async () => (await inspect.getJob('t1.start')) === undefined);
      expect(runs).to.have.length(2);
    } finally {
      stale.open();
      takeover.open();
      await queue.close();
      await inspect.close();
    }
  });
});
