/**
 * What CPU contention does at its worst, made exact: an instance is frozen (SIGSTOP) mid-step for
 * longer than its BullMQ lock, so another instance runs the step again from the last snapshot and
 * the task moves on (its question answered, a durable timer set); then the frozen instance wakes
 * (SIGCONT) and finishes its stale copy of the step. That copy must not write over the task: the
 * task must still rest on its timer, run its effect once and complete, without asking again what
 * was answered. (Under load, one red-team run left a task unfinished after 120 s.)
 *
 * The frozen instance wakes only once the other's step has let the task go and it rests on its
 * timer, read from the store itself: `working` alone is no sign of it, since the update sets it at
 * once, and a stale step writing while the other still runs meets a different record. The same
 * interleavings in one process, each one exact, are test/engine/tasks/task-runner-stale-runs.test.ts.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyEntry, isTerminalStatus, parseKeyRing, RedisTaskStore } from '../../server/engine/index.js';
import { SLOW_THEN_ASK } from '../fixtures/long-step-tools.js';
import { callTool } from '../helpers/mcp-http.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';
import { getTask, resultOf, TASK_CLIENT, taskRpc, waitForTask } from '../helpers/tasks.js';

function journalLines(file: string, kind: string, taskId: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith(`${kind} ${taskId} `))
    .map((line) => Number(line.split(' ')[2]));
}

async function until<T>(what: string, timeoutMs: number, probe: () => T | undefined | Promise<T | undefined>) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a step frozen past its lock, then woken, in a Redis fleet', function () {
  this.timeout(180_000);
  let redis: RunningRedis | undefined;
  const fleet = new BatonFleet();
  const instances: BatonInstance[] = [];
  let dir: string;
  let journal: string;
  let frozen: number | undefined;
  let keys: string;
  /** Reads the records as the instances store them, to see what tasks/get does not show (phase, claim). */
  let records: RedisTaskStore | undefined;

  before(async function () {
    requireBinaries(this, REDIS);
    dir = mkdtempSync(join(tmpdir(), 'baton-frozen-'));
    journal = join(dir, 'journal');
    redis = await startRedis();
    keys = generateKeyEntry('frozen');
    records = new RedisTaskStore({ url: redis.url, keyRing: parseKeyRing(keys) });
    for (let i = 0; i < 2; i++) {
      instances.push(
        await fleet.start({
          keys,
          args: ['--tools', 'test/fixtures/long-step-tools.ts'],
          env: {
            BATON_REDIS_URL: redis.url,
            BATON_TEST_JOURNAL: journal,
            BATON_TASK_LOCK_MS: '2000',
            BATON_TASK_POLL_MS: '200',
          },
        }),
      );
    }
  });
  after(async () => {
    if (frozen !== undefined) process.kill(frozen, 'SIGCONT');
    await fleet.stopAll();
    await records?.close();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lets the task move on without the stale copy of the step writing over it', async () => {
    const taskId = resultOf(await callTool(instances[0]!.url, SLOW_THEN_ASK, {}, {}, { capabilities: TASK_CLIENT }))
      .taskId as string;
    const first = await until('the first step starts', 20_000, () => journalLines(journal, 'start', taskId)[0]);
    frozen = first;
    process.kill(first, 'SIGSTOP');
    const awake = instances.find((instance) => instance.pid !== first)!;
    // The lock runs out and the other instance runs the step again from the last snapshot.
    await until('the step runs again elsewhere', 30_000, () =>
      journalLines(journal, 'start', taskId).find((pid) => pid !== first),
    );
    const asking = await waitForTask(awake.url, taskId, (t) => t.status === 'input_required', { timeoutMs: 30_000 });
    expect(Object.keys(asking.inputRequests)).to.deep.equal(['go']);
    resultOf(
      await taskRpc(awake.url, 'tasks/update', {
        taskId,
        inputResponses: { go: { action: 'accept', content: { go: true } } },
      }),
    );
    // The answer is in and the step it woke is over: the task rests on its durable timer, held by
    // no run, when the frozen one wakes.
    const resting = await until('the task rests on its timer', 30_000, async () => {
      const record = await records!.get(taskId);
      return record?.status === 'working' && record.phase === 'idle' && record.timers.length === 1 ? record : undefined;
    });
    expect(resting.runningStep).to.equal(undefined);
    expect(Object.keys(resting.answers)).to.deep.equal([]);
    expect(resting.askCounts).to.deep.equal({ go: 1 });
    process.kill(first, 'SIGCONT');
    frozen = undefined;

    const seen: string[] = [];
    let last: any;
    // Stops at the first question asked again: a task that asks again never ends on its own.
    const ended = await until('the task ends', 60_000, async () => {
      const task = (last = await getTask(awake.url, taskId));
      if (task.status === 'input_required') seen.push(...Object.keys(task.inputRequests));
      return isTerminalStatus(task.status) || seen.length > 0 ? task : undefined;
    }).catch((error: Error) => {
      throw new Error(`${error.message}; last seen: ${JSON.stringify(last)}`);
    });
    expect(seen, 'asked again for what was answered').to.deep.equal([]);
    expect(ended.status).to.equal('completed');
    expect(journalLines(journal, 'effect', taskId)).to.have.length(1);
    // Completed once, asked once: no write after the stale step's wake asked `go` again.
    const stored = await records!.get(taskId);
    expect(stored).to.include({ status: 'completed', phase: 'idle' });
    expect(stored!.askCounts).to.deep.equal({ go: 1 });
  });
});
