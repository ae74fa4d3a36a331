/**
 * Tasks across a fleet: three Baton processes share one real redis-server (task store and BullMQ
 * queue). One instance sets durable timers and is SIGKILLed while it runs build steps of other
 * tasks; the survivors recover its jobs (BullMQ's stalled-job check), fire its timers, and every
 * task ends completed, none lost, none promoted twice, each readable from every instance. A
 * listener on one instance hears tasks whose steps run on another, and an instance stopped with
 * SIGTERM mid-step exits at once while another resumes the step.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyEntry, isTerminalStatus } from '../../server/engine/index.js';
import { callTool } from '../helpers/mcp-http.js';
import { sseMessages } from '../helpers/sse-events.js';
import { REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';
import { getTask, listenToTasks, resultOf, TASK_CLIENT, taskRpc, waitForTask } from '../helpers/tasks.js';

const approve = { approve: { action: 'accept', content: { approve: true, approver: 'fleet' } } };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('tasks across a fleet sharing Redis (BullMQ)', function () {
  this.timeout(180_000);
  let redis: RunningRedis | undefined;
  const fleet = new BatonFleet();
  const listeningFleet = new BatonFleet();
  const deployFleet = new BatonFleet();
  let dir: string;

  /** An instance of one fleet: its key ring, the shared Redis, a promotion journal, short locks. */
  const fleetOptions = (kid: string, journal: string) => ({
    keys: generateKeyEntry(kid),
    env: {
      BATON_REDIS_URL: redis!.url,
      BATON_DEPLOY_JOURNAL: journal,
      // A dead instance's jobs move on after about two seconds (BullMQ lock and stalled check).
      BATON_TASK_LOCK_MS: '2000',
      BATON_TASK_POLL_MS: '200',
    },
  });
  /** Starts ship-release as a task on `url`; its task id. */
  const shipRelease = async (url: string, service: string, bakeSeconds: number) =>
    resultOf(
      await callTool(url, 'ship-release', { service, version: '1', bakeSeconds }, {}, { capabilities: TASK_CLIENT }),
    ).taskId as string;

  before(async function () {
    requireBinaries(this, REDIS);
    dir = mkdtempSync(join(tmpdir(), 'baton-tasks-fleet-'));
    redis = await startRedis();
  });
  after(async () => {
    await fleet.stopAll();
    await listeningFleet.stopAll();
    await deployFleet.stopAll();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('survives a killed instance: recovered steps, its timers fired elsewhere, no task lost, no promotion twice', async () => {
    const journal = join(dir, 'journal');
    const options = fleetOptions('fleet', journal);
    const create = (instance: BatonInstance, bakeSeconds: number) => shipRelease(instance.url, 'svc', bakeSeconds);
    const waitingFor = (url: string, id: string, test: (t: any) => boolean) =>
      waitForTask(url, id, test, { timeoutMs: 60_000 });

    // 1. The victim alone sets durable timers: it runs the approval steps that start the bake.
    const victim = await fleet.start(options);
    const timerTasks = await Promise.all(Array.from({ length: 10 }, () => create(victim, 20)));
    for (const id of timerTasks) {
      await waitingFor(victim.url, id, (t) => t.status === 'input_required');
      resultOf(await taskRpc(victim.url, 'tasks/update', { taskId: id, inputResponses: approve }));
    }
    for (const id of timerTasks) await waitingFor(victim.url, id, (t) => /Baking/.test(t.statusMessage ?? ''));

    // 2. Two more instances join; 40 more tasks are spread over all three; the victim is killed mid-build.
    const survivors = [await fleet.start(options), await fleet.start(options)];
    const all = [victim, ...survivors];
    const workTasks = await Promise.all(Array.from({ length: 40 }, (_, i) => create(all[i % 3]!, 1)));
    await sleep(500);
    process.kill(victim.pid, 'SIGKILL');
    await victim.exited;

    // 3. The survivors answer for every task, approve the new ones, and finish them all.
    const pending = new Set(workTasks);
    let turn = 0;
    const deadline = Date.now() + 90_000;
    while (pending.size > 0 && Date.now() < deadline) {
      for (const id of [...pending]) {
        const url = survivors[turn++ % 2]!.url;
        const task = await getTask(url, id);
        if (task.status === 'input_required') {
          resultOf(await taskRpc(url, 'tasks/update', { taskId: id, inputResponses: approve }));
          pending.delete(id);
        } else if (isTerminalStatus(task.status)) pending.delete(id);
      }
      await sleep(200);
    }
    expect([...pending], 'tasks never asked for approval').to.deep.equal([]);

    const finals: any[] = [];
    for (const id of [...timerTasks, ...workTasks]) {
      const task = await waitingFor(survivors[0]!.url, id, (t) => t.status === 'completed');
      finals.push(task);
      // Every instance answers for every task, with the same view.
      expect((await getTask(survivors[1]!.url, id)).status).to.equal(task.status);
    }
    expect(finals.map((t) => t.status)).to.deep.equal(Array(50).fill('completed'));
    expect(finals.every((t) => t.result.structuredContent?.shipped === true)).to.equal(true);

    // The victim really had work cut off, which the survivors resumed from the last snapshot.
    const resumedLogs = survivors.map((s) => s.stderr().match(/task_step_resumed/g)?.length ?? 0);
    expect(
      resumedLogs.reduce((a, b) => a + b, 0),
      'steps resumed after the kill',
    ).to.be.greaterThan(0);

    // A cancel sent to one instance stops a step running on any of them (Redis pub/sub).
    const doomed = await create(survivors[0]!, 60);
    await waitingFor(survivors[0]!.url, doomed, (t) => /Building/.test(t.statusMessage ?? ''));
    resultOf(await taskRpc(survivors[1]!.url, 'tasks/cancel', { taskId: doomed }));
    const cancelled = await waitingFor(survivors[0]!.url, doomed, (t) => t.status === 'cancelled');
    expect(cancelled.status).to.equal('cancelled');

    // Each task promoted exactly once, though some promotion steps may have been run again.
    expect(existsSync(journal)).to.equal(true);
    const promotions = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('promote '))
      .map((line) => line.split(' ')[1]!.split('/')[0]!);
    expect(promotions.length).to.equal(50);
    expect(new Set(promotions)).to.deep.equal(new Set([...timerTasks, ...workTasks]));
  });

  it('streams task notifications to a listener on one instance while other instances run the steps (Redis pub/sub)', async () => {
    // A fleet of its own: the instances left from the test above seal with another key.
    await fleet.stopAll();
    const journal = join(dir, 'journal-listen');
    const options = fleetOptions('listen', journal);
    const [runner, listener] = [await listeningFleet.start(options), await listeningFleet.start(options)];
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(await shipRelease(runner.url, `svc${i}`, 1));
    }
    // Bounded: without notifications from the other instances the stream would wait for ever.
    const response = await listenToTasks(listener.url, ids, {
      id: 'listen-fleet',
      signal: AbortSignal.timeout(30_000),
    });
    const last = new Map<string, any>();
    const approved = new Set<string>();
    let ended = false;
    try {
      for await (const message of sseMessages(response)) {
        if (message.id === 'listen-fleet') ended = true;
        if (message.method !== 'notifications/tasks') continue;
        const task = message.params;
        last.set(task.taskId, task);
        if (task.status === 'input_required' && !approved.has(task.taskId)) {
          approved.add(task.taskId);
          // Answered through the other instance: the listener hears what happens anywhere.
          resultOf(await taskRpc(runner.url, 'tasks/update', { taskId: task.taskId, inputResponses: approve }));
        }
      }
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError') throw error;
    }
    expect(ended, 'the stream ends with the listen result').to.equal(true);
    expect([...last.keys()].sort()).to.deep.equal([...ids].sort());
    for (const task of last.values()) {
      expect(task.status).to.equal('completed');
      expect(task.result.structuredContent.shipped).to.equal(true);
    }
    // Some of the steps that completed these tasks ran outside the listening instance, so their
    // notifications crossed instances (the journal names the process of each promotion).
    const promoters = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('promote '))
      .map((line) => Number(line.split(' ')[2]));
    expect(promoters).to.have.length(6);
    expect(promoters.some((pid) => pid !== listener.pid)).to.equal(true);
  });

  it('on SIGTERM (a deploy), stops its running step and exits; the step resumes on another instance', async () => {
    await listeningFleet.stopAll();
    const journal = join(dir, 'journal-deploy');
    const options = fleetOptions('deploy', journal);
    // The leaving instance is alone when the task starts, so its build step runs there.
    const leaving = await deployFleet.start(options);
    const taskId = await shipRelease(leaving.url, 'deployed', 1);
    await waitForTask(leaving.url, taskId, (t) => /Building/.test(t.statusMessage ?? ''), { timeoutMs: 10_000 });
    const stoppedAt = Date.now();
    process.kill(leaving.pid, 'SIGTERM');
    const exit = await leaving.exited;
    expect(exit.code, 'a clean exit').to.equal(0);
    expect(Date.now() - stoppedAt, 'it does not wait for the build to finish').to.be.lessThan(10_000);

    // Another instance takes the step over from the last snapshot and the task runs to its end.
    const staying = await deployFleet.start(options);
    await waitForTask(staying.url, taskId, (t) => t.status === 'input_required', { timeoutMs: 30_000 });
    resultOf(await taskRpc(staying.url, 'tasks/update', { taskId, inputResponses: approve }));
    const done = await waitForTask(staying.url, taskId, (t) => t.status === 'completed', { timeoutMs: 30_000 });
    expect(done.result.structuredContent.shipped).to.equal(true);
    expect(staying.stderr()).to.match(/task_step_resumed/);
    const promotions = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('promote '));
    expect(promotions).to.have.length(1);
    expect(promotions[0]!.split(' ')[2]).to.equal(String(staying.pid));
  });
});
