/**
 * A rolling deploy of `release` version 2, for real: four `baton serve` processes behind nginx
 * (deploy/nginx.conf, round robin), two of the build before the change and two of the new build
 * (version 2, version 1 kept), one key ring; in memory (each instance its own single-use guard)
 * and with Redis (one shared guard). Every round of every flow goes wherever nginx sends it, so
 * flows cross between the builds round by round. Then the old builds stop while flows are in
 * flight, and those flows finish on the new ones.
 *
 * With Redis, tasks go alongside (a fleet's tasks need the shared task store and BullMQ queue, so
 * memory mode has none): `rollout` (fixtures/rolling-task.ts), version 1 on the old build, version
 * 2 with version 1 kept on the new, created, polled and answered through nginx; each step runs on
 * whichever worker takes its job, so a job an old instance created may run on a new worker and the
 * other way round. A version-2 task's job that an old worker takes is left for another worker
 * (task-versions.ts: looked at again 2 s later, by any worker); counted from the old instances'
 * logs, with how long those steps waited. The old builds stop while some tasks wait for an answer
 * and others were just answered (their step queued or running); all finish on the new. Counted per
 * task: re-asks (a question asked again, `approve.2`), crashes, failures, the machine that ran it
 * (its version's, never another), and its effect (applied once per idempotency key, journaled).
 *
 * Counted per flow: re-asks (a question asked again after it was answered: the flow restarted),
 * crashes (HTTP 5xx from an instance, or a JSON-RPC error), and effects (every deployment the
 * release starts is journaled by whichever process runs it: BATON_DEPLOY_JOURNAL).
 *
 * What a kept version promises: a flow the old build started finishes on either build, never
 * asked again. What it cannot: the old build (version 1 only) does not know version 2, so a flow
 * a new build started restarts when a round lands on an old one. Those are counted apart. The cure
 * is to start new calls on version 1 while old instances serve: the new build with
 * BATON_START_ON=release=v1, then the same build without it (or a bridge build, version 1 current
 * and version 2 kept: fixtures/rolling-builds.ts). With either, no flow restarts at all
 * (docs/deploy.md, "Rolling deploys").
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { generateKeyEntry } from '../../server/engine/index.js';
import { startNginx, type RunningNginx } from '../helpers/nginx.js';
import { NGINX, REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../../bench/redis/index.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';
import {
  inPool,
  newFlows,
  newTasks,
  RollingClient,
  TASK_PHASE_MS,
  type Flow,
  type TaskRun,
} from '../helpers/rolling-client.js';
import {
  expectSound,
  expectTasksSound,
  figuresOf,
  report,
  reportTasks,
  taskFiguresOf,
  type Figures,
  type TaskFigures,
} from '../helpers/rolling-figures.js';

const BUILDS_MODULE = fileURLToPath(new URL('./fixtures/rolling-builds.ts', import.meta.url));
const FLOWS_ACROSS = 40;
const FLOWS_IN_FLIGHT = 16;
/** The first step of a rolling deploy: the new build starts new calls on the version the old one knows. */
const PINNED = { BATON_START_ON: 'release=v1,rollout=v1' };
/** Tasks of `rollout` (fixtures/rolling-task.ts), with Redis only: a fleet's tasks need the shared store and queue. */
const TASKS_ACROSS = 16;
const TASKS_IN_FLIGHT = 12;

async function rollingDeploy(options: {
  run: string;
  oldBuild: string;
  newBuild?: string;
  /** Settings of each side's instances (BATON_START_ON). */
  oldEnv?: Record<string, string>;
  newEnv?: Record<string, string>;
  redis?: RunningRedis | undefined;
}): Promise<{
  figures: Figures;
  flows: Flow[];
  taskFigures?: TaskFigures;
  tasks: TaskRun[];
}> {
  const dir = mkdtempSync(join(tmpdir(), 'baton-rolling-'));
  const journal = join(dir, 'deployments.log');
  const fleet = new BatonFleet();
  let nginx: RunningNginx | undefined;
  const keys = generateKeyEntry(`rolling-${options.run}`);
  const builds = new Map<string, string>();
  const pids = new Map<number, string>();
  try {
    const start = async (side: 'old' | 'new'): Promise<BatonInstance> => {
      const instance = await fleet.start({
        keys,
        args: ['--tools', BUILDS_MODULE],
        env: {
          ROLLING_BUILD: side === 'old' ? options.oldBuild : (options.newBuild ?? 'new'),
          BATON_DEPLOY_JOURNAL: journal,
          // A stopped instance's task steps move on after about two seconds (BullMQ's lock).
          ...(options.redis ? { BATON_REDIS_URL: options.redis.url, BATON_TASK_LOCK_MS: '2000' } : {}),
          ...(side === 'old' ? options.oldEnv : options.newEnv),
        },
      });
      builds.set(instance.instanceId, side);
      pids.set(instance.pid, side);
      return instance;
    };
    const old1 = await start('old');
    const new1 = await start('new');
    const old2 = await start('old');
    const new2 = await start('new');
    nginx = await startNginx({ upstreams: [old1.port, new1.port, old2.port, new2.port] });
    const client = new RollingClient(nginx.url, (instance) => builds.get(instance) ?? `unknown ${instance}`);
    const withTasks = options.redis !== undefined;
    let taskPhases = { acrossMs: 0, afterStopMs: 0 };
    try {
      // Both builds serve: every round of every flow wherever nginx sends it, every task step on any worker.
      const across = newFlows(options.run, 'across', FLOWS_ACROSS);
      const tasksAcross = withTasks ? newTasks(options.run, 'across', TASKS_ACROSS) : [];
      const acrossDeadline = Date.now() + TASK_PHASE_MS;
      await Promise.all([
        inPool(across, (flow) => client.finish(flow)),
        // Every task at once: a task mostly waits (for its steps, and for a worker that knows its version).
        inPool(
          tasksAcross,
          async (task) => {
            await client.createTask(task);
            await client.finishTask(task, acrossDeadline);
          },
          TASKS_ACROSS,
        ),
      ]);
      // In flight when the old builds stop: flows asked their first question; tasks asked
      // theirs, half of them answered just before the stop (their next step queued or running).
      const inFlight = newFlows(options.run, 'stop', FLOWS_IN_FLIGHT);
      const tasksInFlight = withTasks ? newTasks(options.run, 'stop', TASKS_IN_FLIGHT) : [];
      const stopDeadline = Date.now() + TASK_PHASE_MS;
      await Promise.all([
        inPool(inFlight, (flow) => client.round(flow)),
        inPool(
          tasksInFlight,
          async (task) => {
            await client.createTask(task);
            await client.stepTask(task, stopDeadline, false);
          },
          TASKS_IN_FLIGHT,
        ),
      ]);
      const acrossMs = Date.now() - (acrossDeadline - TASK_PHASE_MS);
      const running = tasksInFlight.filter((_, index) => index % 2 === 0);
      await Promise.all(running.map((task) => client.stepTask(task, stopDeadline)));
      await Promise.all([old1.stop(), old2.stop()]);
      const finishDeadline = Date.now() + TASK_PHASE_MS;
      await Promise.all([
        inPool(inFlight, (flow) => client.finish(flow)),
        inPool(tasksInFlight, (task) => client.finishTask(task, finishDeadline), TASKS_IN_FLIGHT),
      ]);
      taskPhases = { acrossMs, afterStopMs: Date.now() - (finishDeadline - TASK_PHASE_MS) };
      const flows = [...across, ...inFlight];
      const log = readFileSync(journal, 'utf8');
      const figures = figuresOf(flows, log);
      figures.stopped = inFlight.length;
      figures.finishedOnNew = inFlight.filter((flow) => flow.deploymentId && flow.builds.at(-1) === 'new').length;
      const tasks = [...tasksAcross, ...tasksInFlight];
      if (!withTasks) return { figures, flows, tasks };
      const taskFigures = taskFiguresOf(tasks, log, pids, options.newEnv === PINNED);
      taskFigures.stopped = tasksInFlight.length;
      taskFigures.running = running.length;
      Object.assign(taskFigures, taskPhases);
      taskFigures.finishedAfterStop = tasksInFlight.filter((task) => task.status === 'completed').length;
      // What the old workers did with jobs of versions they do not know (their logs).
      const left = [old1, old2].flatMap((instance) => instance.stderr().match(/task_version_unknown[^\n]*/g) ?? []);
      taskFigures.leftByOld = left.length;
      const leftIds = new Set(left.map((line) => /"taskId":"([^"]+)"/.exec(line)?.[1]));
      taskFigures.tasksLeft = leftIds.size;
      // How long a step of theirs waited (at most) for a worker that knows its version.
      const waits = tasks
        .filter((task) => leftIds.has(task.taskId))
        .map((task) => Math.max(...task.stepMs))
        .sort((x, y) => x - y);
      taskFigures.leftWaitMedianMs = waits[Math.floor(waits.length / 2)] ?? 0;
      taskFigures.leftWaitMaxMs = waits.at(-1) ?? 0;
      return { figures, flows, taskFigures, tasks };
    } finally {
      client.agent.destroy();
    }
  } finally {
    await nginx?.stop();
    await fleet.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The version a task runs on: the one its creating instance starts new calls on. */

describe('a rolling deploy of release version 2 behind nginx', function () {
  this.timeout(300_000);
  let redis: RunningRedis | undefined;

  before(async function () {
    requireBinaries(this, NGINX, REDIS);
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  for (const mode of ['memory', 'redis'] as const) {
    const andTasks = mode === 'redis' ? ' (tasks too: every task completes on its version, asked nothing twice)' : '';

    it(`${mode}: no flow the old build started is asked again, none crashes, each deploys once${andTasks}`, async () => {
      const { figures, flows, taskFigures, tasks } = await rollingDeploy({
        run: `${mode}-old`,
        oldBuild: 'old',
        ...(mode === 'redis' ? { redis } : {}),
      });
      report(`${mode}, old build = version 1 only`, figures);
      if (taskFigures) reportTasks(`${mode}, old build = version 1 only`, taskFigures);
      expect(figures.reasksFromOld, 'flows the old build started, asked again').to.equal(0);
      expectSound(figures, flows);
      if (taskFigures) expectTasksSound(taskFigures, tasks);
    });

    it(`${mode}: with the new build starting on version 1 (BATON_START_ON), no flow is asked again${andTasks}`, async () => {
      const { figures, flows, taskFigures, tasks } = await rollingDeploy({
        run: `${mode}-pinned`,
        oldBuild: 'old',
        newEnv: PINNED,
        ...(mode === 'redis' ? { redis } : {}),
      });
      const label = `${mode}, old build = version 1 only, new build with BATON_START_ON=release=v1,rollout=v1`;
      report(label, figures);
      if (taskFigures) reportTasks(label, taskFigures);
      expect(figures.reasksFromOld + figures.reasksFromNew, 'flows asked again').to.equal(0);
      expectSound(figures, flows);
      if (taskFigures) {
        expectTasksSound(taskFigures, tasks);
        // Every task on version 1, which every worker knows: no job is left for another build.
        expect(taskFigures.onV2, 'tasks on version 2').to.equal(0);
        expect(taskFigures.leftByOld, 'jobs an old worker left').to.equal(0);
      }
    });
  }

  it('memory: then the setting goes, build by build, and still no flow is asked again', async () => {
    const { figures, flows } = await rollingDeploy({ run: 'memory-unpinned', oldBuild: 'new', oldEnv: PINNED });
    report('memory, old = new build with BATON_START_ON=release=v1, new = the same build without it', figures);
    expect(figures.reasksFromOld + figures.reasksFromNew, 'flows asked again').to.equal(0);
    expectSound(figures, flows);
  });

  it('memory: a bridge build (version 1 current, version 2 kept) does what the setting does', async () => {
    const { figures, flows } = await rollingDeploy({ run: 'memory-bridge', oldBuild: 'bridge' });
    report('memory, old build = bridge (version 1 current, version 2 known)', figures);
    expect(figures.reasksFromOld + figures.reasksFromNew, 'flows asked again').to.equal(0);
    expectSound(figures, flows);
  });
});
