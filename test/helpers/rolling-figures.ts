/**
 * What the rolling-deploy test counts (test/features/rolling-deploy.test.ts): re-asks, crashes,
 * effects and which build ran what, for flows and for tasks; how it prints them; and what it
 * expects of a sound deploy.
 */
import { expect } from 'chai';
import type { Flow, TaskRun } from './rolling-client.js';

export interface TaskFigures {
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

export interface Figures {
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

function expectedMachine(task: TaskRun, pinned: boolean): string {
  return task.createdOn === 'new' && !pinned ? 'v2' : 'v1';
}

export function taskFiguresOf(
  tasks: TaskRun[],
  journal: string,
  pids: Map<number, string>,
  pinned: boolean,
): TaskFigures {
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

export function figuresOf(flows: Flow[], journal: string): Figures {
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

export function report(label: string, f: Figures): void {
  console.log(
    `      rolling deploy (${label}): ${f.flows} flows (${f.fromOld} started on the old build, ${f.fromNew} on the new; ` +
      `${f.crossed} crossed builds), re-asks ${f.reasksFromOld} of old-started, ${f.reasksFromNew} of new-started, ` +
      `${f.crashes} crashes, ${f.completed} completed (${f.finishedOnNew} of the ${f.stopped} in flight when the old ` +
      `builds stopped, on the new), ${f.effects} effects (${f.effectsOnce} once), ` +
      `${f.retries} undelivered attempts sent again`,
  );
}

export function reportTasks(label: string, f: TaskFigures): void {
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
export function expectTasksSound(f: TaskFigures, tasks: TaskRun[]): void {
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
export function expectSound(f: Figures, flows: Flow[]): void {
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
