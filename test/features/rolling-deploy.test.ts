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
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { generateKeyEntry, TASKS_EXTENSION } from '../../server/engine/index.js';
import { requestMeta, standardHeaders } from '../helpers/mcp-http.js';
import { startNginx, type RunningNginx } from '../helpers/nginx.js';
import { NGINX, REDIS, requireBinaries } from '../helpers/required-binary.js';
import { startRedis, type RunningRedis } from '../helpers/redis-server.js';
import { BatonFleet, type BatonInstance } from '../helpers/spawn-baton.js';

const BUILDS_MODULE = fileURLToPath(new URL('./fixtures/rolling-builds.ts', import.meta.url));
const FLOWS_ACROSS = 40;
const FLOWS_IN_FLIGHT = 16;
const CONCURRENCY = 8;
const RETRYABLE = new Set([502, 503, 504]);
const WINDOWS = ['now', 'tonight', 'weekend'];
/** The first step of a rolling deploy: the new build starts new calls on the version the old one knows. */
const PINNED = { BATON_START_ON: 'release=v1,rollout=v1' };
/** Tasks of `rollout` (fixtures/rolling-task.ts), with Redis only: a fleet's tasks need the shared store and queue. */
const TASKS_ACROSS = 16;
const TASKS_IN_FLIGHT = 12;
/** How long the tasks of a phase may take, before those still going count as unfinished. */
const TASK_PHASE_MS = 45_000;
/** A client of the tasks extension that answers forms. */
const TASK_CLIENT = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const TASK_ANSWERS: Record<string, (task: TaskRun) => Record<string, unknown>> = {
  approve: () => ({ approve: true }),
  window: (task) => ({ window: task.window }),
  verify: () => ({ healthy: true }),
};

interface Flow {
  service: string;
  window: string;
  /** The build of each round's instance, in order. */
  builds: string[];
  answered: Set<string>;
  reasks: number;
  crashes: string[];
  /** Attempts the proxy could not deliver (an instance stopping), sent again. */
  retries: number;
  state?: { requestState: string; inputResponses: Record<string, unknown> };
  deploymentId?: string;
  done: boolean;
}

interface TaskRun {
  service: string;
  window: string;
  taskId?: string;
  /** The build of the instance that created it: its version is the task's. */
  createdOn?: string;
  answered: Set<string>;
  reasks: number;
  crashes: string[];
  retries: number;
  status?: string;
  /** A terminal status other than completed, with its error. */
  failure?: string;
  /** The structured result: which machine ran it (`machine`) and its effect's key (`applied`). */
  result?: { machine?: string; applied?: string; window?: string | null };
  /** When the request that moves it on was sent (created, answered). */
  sentAt?: number | undefined;
  /** From each such request to the next pause or the end, ms. */
  stepMs: number[];
  done: boolean;
}

interface TaskFigures {
  tasks: number;
  fromOld: number;
  fromNew: number;
  onV1: number;
  onV2: number;
  /** Tasks whose result came from another machine than their version's: never. */
  wrongMachine: number;
  /** Tasks whose effect ran on another build than the one that created them. */
  crossed: number;
  reasks: number;
  crashes: number;
  failed: number;
  unfinished: number;
  completed: number;
  stopped: number;
  /** Of those in flight at the stop: answered just before it (their steps queued or running). */
  running: number;
  finishedAfterStop: number;
  effects: number;
  effectsOnce: number;
  /** Runs of the effect (a step cut short runs again, with the same key: not applied again). */
  effectRuns: number;
  /** Looks an old worker took at a version-2 task's job and left it (`task_version_unknown`). */
  leftByOld: number;
  tasksLeft: number;
  /** Of the tasks left: their longest step, median and longest (ms). */
  leftWaitMedianMs: number;
  leftWaitMaxMs: number;
  /** How long the phase with both builds took, and the one after the stop (ms). */
  acrossMs: number;
  afterStopMs: number;
  /** Step times, ms: the median, and the longest (a job left waits for a worker that can run it). */
  stepMedianMs: number;
  stepMaxMs: number;
  retries: number;
}

interface Figures {
  flows: number;
  fromOld: number;
  fromNew: number;
  crossed: number;
  reasksFromOld: number;
  reasksFromNew: number;
  crashes: number;
  retries: number;
  completed: number;
  /** Flows in flight when the old builds stopped, and how many of those finished on the new. */
  stopped: number;
  finishedOnNew: number;
  effects: number;
  effectsOnce: number;
}

class RollingClient {
  readonly agent = new Agent({ keepAlive: true, maxSockets: 4 * CONCURRENCY });
  #id = 1;
  constructor(
    readonly url: string,
    readonly buildOf: (instance: string) => string,
  ) {}

  post(
    params: Record<string, unknown>,
    method = 'tools/call',
  ): Promise<{ status: number; instance: string; body: any }> {
    const message = { jsonrpc: '2.0', id: this.#id++, method, params };
    const text = JSON.stringify(message);
    return new Promise((resolve, reject) => {
      const req = request(
        this.url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...standardHeaders(message), 'content-length': Buffer.byteLength(text) },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('error', reject);
          res.on('end', () => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(body);
            } catch {
              parsed = { unparsed: body };
            }
            resolve({ status: res.statusCode!, instance: String(res.headers['baton-instance']), body: parsed });
          });
        },
      );
      req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(text);
    });
  }

  /** One round of `flow`: its first call, or its answers to the last questions. */
  async round(flow: Flow): Promise<void> {
    const params = {
      name: 'release',
      arguments: { service: flow.service, version: '2.0.0' },
      ...(flow.state ?? {}),
      _meta: requestMeta({ elicitation: {} }),
    };
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      let answer;
      try {
        answer = await this.post(params);
      } catch {
        flow.retries += 1;
        await sleep(20 * attempt);
        continue;
      }
      if (RETRYABLE.has(answer.status) && answer.instance === 'undefined') {
        // From nginx, not an instance: the upstream it picked is gone. Sent again, as a client does.
        flow.retries += 1;
        await sleep(20 * attempt);
        continue;
      }
      const build = this.buildOf(answer.instance);
      flow.builds.push(build);
      const error = answer.body?.error;
      if (answer.status >= 500 || answer.status !== 200 || error || !answer.body?.result) {
        flow.crashes.push(`${build}: HTTP ${answer.status} ${JSON.stringify(error ?? answer.body).slice(0, 200)}`);
        flow.done = true;
        return;
      }
      const result = answer.body.result;
      if (result.resultType !== 'input_required') {
        flow.deploymentId = result.structuredContent?.deploymentId;
        flow.done = true;
        return;
      }
      const keys = Object.keys(result.inputRequests);
      if (keys.some((key) => flow.answered.has(key))) flow.reasks += 1;
      const inputResponses: Record<string, unknown> = {};
      for (const key of keys) {
        flow.answered.add(key);
        const content = key === 'window' ? { window: flow.window } : key === 'confirm' ? { confirm: true } : {};
        inputResponses[key] = { action: 'accept', content };
      }
      flow.state = { requestState: result.requestState, inputResponses };
      return;
    }
    flow.crashes.push('10 attempts undelivered');
    flow.done = true;
  }

  async finish(flow: Flow): Promise<void> {
    for (let rounds = 0; !flow.done && rounds < 10; rounds += 1) await this.round(flow);
  }

  /** One request of `task`'s, sent again while nginx cannot deliver it; its result, or undefined (a crash). */
  async #taskRequest(task: TaskRun, method: string, params: Record<string, unknown>): Promise<any> {
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      let answer;
      try {
        answer = await this.post({ ...params, _meta: requestMeta(TASK_CLIENT) }, method);
      } catch {
        task.retries += 1;
        await sleep(20 * attempt);
        continue;
      }
      if (RETRYABLE.has(answer.status) && answer.instance === 'undefined') {
        task.retries += 1;
        await sleep(20 * attempt);
        continue;
      }
      const build = this.buildOf(answer.instance);
      const error = answer.body?.error;
      if (answer.status !== 200 || error || !answer.body?.result) {
        task.crashes.push(
          `${build} ${method}: HTTP ${answer.status} ${JSON.stringify(error ?? answer.body).slice(0, 200)}`,
        );
        task.done = true;
        return undefined;
      }
      if (method === 'tools/call') task.createdOn = build;
      return answer.body.result;
    }
    task.crashes.push(`${method}: 10 attempts undelivered`);
    task.done = true;
    return undefined;
  }

  /** Creates `task` on whichever instance nginx picks (its build's version is the task's). */
  async createTask(task: TaskRun): Promise<void> {
    const created = await this.#taskRequest(task, 'tools/call', {
      name: 'rollout',
      arguments: { service: task.service },
    });
    if (!created) return;
    if (created.resultType !== 'task') {
      task.crashes.push(`not a task: ${JSON.stringify(created).slice(0, 200)}`);
      task.done = true;
      return;
    }
    task.taskId = created.taskId;
    task.sentAt = Date.now();
  }

  /**
   * Polls `task` (tasks/get, wherever nginx sends it) until it asks or ends; answers what it asks
   * (tasks/update), unless `answer` is false. A question asked again after it was answered is a
   * re-ask. Each wait from a request that moved the task on to the next pause is a step's time.
   */
  async stepTask(task: TaskRun, deadline: number, answer = true): Promise<void> {
    while (!task.done) {
      if (Date.now() > deadline) {
        task.done = true;
        return;
      }
      const got = await this.#taskRequest(task, 'tasks/get', { taskId: task.taskId });
      if (!got) return;
      task.status = got.status;
      if (got.status === 'working') {
        await sleep(100);
        continue;
      }
      if (task.sentAt !== undefined) task.stepMs.push(Date.now() - task.sentAt);
      task.sentAt = undefined;
      if (got.status !== 'input_required') {
        task.done = true;
        if (got.status === 'completed') task.result = got.result?.structuredContent;
        else task.failure = `${got.status}: ${JSON.stringify(got.error ?? got.statusMessage ?? '')}`;
        return;
      }
      if (!answer) return;
      const keys = Object.keys(got.inputRequests ?? {});
      const inputResponses: Record<string, unknown> = {};
      for (const key of keys) {
        // Wire keys are unique over a task's life: `approve.2` is `approve` asked again.
        const question = key.replace(/\.\d+$/, '');
        if (task.answered.has(question)) task.reasks += 1;
        task.answered.add(question);
        inputResponses[key] = { action: 'accept', content: TASK_ANSWERS[question]?.(task) ?? {} };
      }
      const updated = await this.#taskRequest(task, 'tasks/update', { taskId: task.taskId, inputResponses });
      if (!updated) return;
      task.sentAt = Date.now();
      return;
    }
  }

  async finishTask(task: TaskRun, deadline: number): Promise<void> {
    while (!task.done) await this.stepTask(task, deadline);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function inPool<T>(items: T[], work: (item: T) => Promise<void>, concurrency = CONCURRENCY): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

function newTasks(run: string, phase: string, count: number): TaskRun[] {
  return Array.from({ length: count }, (_, index) => ({
    service: `task-${run}-${phase}-${index}`,
    window: WINDOWS[index % WINDOWS.length]!,
    answered: new Set<string>(),
    reasks: 0,
    crashes: [],
    retries: 0,
    stepMs: [],
    done: false,
  }));
}

function newFlows(run: string, phase: string, count: number): Flow[] {
  return Array.from({ length: count }, (_, index) => ({
    service: `svc-${run}-${phase}-${index}`,
    window: WINDOWS[index % WINDOWS.length]!,
    builds: [],
    answered: new Set<string>(),
    reasks: 0,
    crashes: [],
    retries: 0,
    done: false,
  }));
}

/**
 * Old and new builds side by side behind nginx, then the old ones stopped with flows in flight.
 * With Redis, tasks of `rollout` go alongside: created, polled and answered through nginx, their
 * steps run by whichever worker takes the job from the shared queue.
 */
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
function expectedMachine(task: TaskRun, pinned: boolean): string {
  return task.createdOn === 'new' && !pinned ? 'v2' : 'v1';
}

function taskFiguresOf(tasks: TaskRun[], journal: string, pids: Map<number, string>, pinned: boolean): TaskFigures {
  const applied = new Map<string, { count: number; build: string }>();
  let effectRuns = 0;
  for (const line of journal.split('\n')) {
    const [kind, key, pid] = line.split(' ');
    if (kind === 'rollout-run') effectRuns += 1;
    if (kind !== 'rollout') continue;
    const seen = applied.get(key!);
    applied.set(key!, { count: (seen?.count ?? 0) + 1, build: pids.get(Number(pid)) ?? 'unknown' });
  }
  const completed = tasks.filter((task) => task.status === 'completed' && task.result?.applied);
  const steps = tasks.flatMap((task) => task.stepMs).sort((a, b) => a - b);
  return {
    tasks: tasks.length,
    fromOld: tasks.filter((task) => task.createdOn === 'old').length,
    fromNew: tasks.filter((task) => task.createdOn === 'new').length,
    onV1: completed.filter((task) => task.result?.machine === 'v1').length,
    onV2: completed.filter((task) => task.result?.machine === 'v2').length,
    wrongMachine: completed.filter((task) => task.result?.machine !== expectedMachine(task, pinned)).length,
    crossed: completed.filter((task) => applied.get(task.result!.applied!)?.build !== task.createdOn).length,
    reasks: tasks.reduce((sum, task) => sum + task.reasks, 0),
    crashes: tasks.reduce((sum, task) => sum + task.crashes.length, 0),
    failed: tasks.filter((task) => task.failure !== undefined).length,
    unfinished: tasks.filter(
      (task) => task.crashes.length === 0 && ['working', 'input_required'].includes(task.status ?? ''),
    ).length,
    completed: completed.length,
    stopped: 0,
    running: 0,
    finishedAfterStop: 0,
    effects: [...applied.values()].reduce((sum, { count }) => sum + count, 0),
    effectsOnce: completed.filter((task) => applied.get(task.result!.applied!)?.count === 1).length,
    effectRuns,
    leftByOld: 0,
    tasksLeft: 0,
    leftWaitMedianMs: 0,
    leftWaitMaxMs: 0,
    acrossMs: 0,
    afterStopMs: 0,
    stepMedianMs: steps[Math.floor(steps.length / 2)] ?? 0,
    stepMaxMs: steps.at(-1) ?? 0,
    retries: tasks.reduce((sum, task) => sum + task.retries, 0),
  };
}

function figuresOf(flows: Flow[], journal: string): Figures {
  const deployed = new Map<string, number>();
  // The flows' deployments; the tasks' effects are the `rollout` lines.
  for (const line of journal.split('\n').filter((entry) => entry && !entry.startsWith('rollout'))) {
    const id = line.split(' ')[0]!;
    deployed.set(id, (deployed.get(id) ?? 0) + 1);
  }
  const fromOld = flows.filter((flow) => flow.builds[0] === 'old');
  const fromNew = flows.filter((flow) => flow.builds[0] === 'new');
  const completed = flows.filter((flow) => flow.deploymentId !== undefined);
  return {
    flows: flows.length,
    fromOld: fromOld.length,
    fromNew: fromNew.length,
    crossed: flows.filter((flow) => new Set(flow.builds).size > 1).length,
    reasksFromOld: fromOld.reduce((sum, flow) => sum + flow.reasks, 0),
    reasksFromNew: fromNew.reduce((sum, flow) => sum + flow.reasks, 0),
    crashes: flows.reduce((sum, flow) => sum + flow.crashes.length, 0),
    retries: flows.reduce((sum, flow) => sum + flow.retries, 0),
    completed: completed.length,
    stopped: 0,
    finishedOnNew: 0,
    effects: [...deployed.values()].reduce((sum, n) => sum + n, 0),
    effectsOnce: completed.filter((flow) => deployed.get(flow.deploymentId!) === 1).length,
  };
}

function report(label: string, f: Figures): void {
  console.log(
    `      rolling deploy (${label}): ${f.flows} flows (${f.fromOld} started on the old build, ${f.fromNew} on the new; ` +
      `${f.crossed} crossed builds), re-asks ${f.reasksFromOld} of old-started, ${f.reasksFromNew} of new-started, ` +
      `${f.crashes} crashes, ${f.completed} completed (${f.finishedOnNew} of the ${f.stopped} in flight when the old ` +
      `builds stopped, on the new), ${f.effects} effects (${f.effectsOnce} once), ` +
      `${f.retries} undelivered attempts sent again`,
  );
}

function reportTasks(label: string, f: TaskFigures): void {
  console.log(
    `      rolling deploy (${label}): ${f.tasks} tasks (${f.fromOld} created on the old build, ${f.fromNew} on the new; ` +
      `${f.onV1} ran on version 1, ${f.onV2} on version 2, ${f.wrongMachine} on another version's machine; ` +
      `${f.crossed} applied on the other build), re-asks ${f.reasks}, ${f.crashes} crashes, ${f.failed} failed, ` +
      `${f.unfinished} unfinished, ${f.completed} completed (${f.finishedAfterStop} of the ${f.stopped} in flight when ` +
      `the old builds stopped, ${f.running} of them answered just before), ${f.effects} effects (${f.effectsOnce} once, ` +
      `${f.effectRuns} runs), ${f.leftByOld} looks by an old worker at a job it left (${f.tasksLeft} tasks; their ` +
      `longest step ${f.leftWaitMedianMs} ms median, ${f.leftWaitMaxMs} ms longest), steps ${f.stepMedianMs} ms median, ` +
      `${f.stepMaxMs} ms longest; ${f.acrossMs} ms with both builds, ${f.afterStopMs} ms after the stop; ` +
      `${f.retries} undelivered attempts sent again`,
  );
}

/** Every task completed on its own version's machine, none asked again or crashed, each effect once. */
function expectTasksSound(f: TaskFigures, tasks: TaskRun[]): void {
  expect(
    tasks.flatMap((task) => task.crashes),
    'task crashes',
  ).to.deep.equal([]);
  expect(
    tasks.flatMap((task) => (task.failure ? [`${task.service}: ${task.failure}`] : [])),
    'tasks failed',
  ).to.deep.equal([]);
  expect(f.reasks, 'task questions asked again').to.equal(0);
  expect(f.unfinished, 'tasks unfinished').to.equal(0);
  expect(f.completed, 'tasks completed').to.equal(f.tasks);
  expect(f.wrongMachine, 'tasks run on another version').to.equal(0);
  expect(f.effects, 'task effects applied').to.equal(f.tasks);
  expect(f.effectsOnce, 'each task effect once').to.equal(f.tasks);
  expect(f.finishedAfterStop, 'tasks in flight when the old builds stopped, finished').to.equal(f.stopped);
  expect(f.fromOld).to.be.greaterThan(0);
  expect(f.fromNew).to.be.greaterThan(0);
}

/** Every flow completed, none crashed, and every deployment ran once: the effect of each flow. */
function expectSound(f: Figures, flows: Flow[]): void {
  expect(
    flows.flatMap((flow) => flow.crashes),
    'crashes',
  ).to.deep.equal([]);
  expect(f.completed, 'flows completed').to.equal(f.flows);
  expect(f.effects, 'deployments journaled').to.equal(f.flows);
  expect(f.effectsOnce, 'each deployment once').to.equal(f.flows);
  expect(f.finishedOnNew, 'flows in flight when the old builds stopped, finished on the new').to.equal(f.stopped);
  // Round robin over old, new, old, new: flows really cross between the builds.
  expect(f.fromOld).to.be.greaterThan(0);
  // At least a quarter (round robin gives about half; clients can fall into step with it under load).
  expect(f.crossed).to.be.greaterThan(f.flows / 4);
}

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
