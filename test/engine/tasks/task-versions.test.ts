/**
 * Tasks across a deploy that changed their tool's structure: two builds (two runners) share one
 * store and one hand-driven queue. A task's step runs on its record's version only: kept, migrated,
 * or left for a worker of a build that knows it, then failed; never on another version's machine.
 */
import { expect } from 'chai';
import { createActor, type AnyStateMachine } from 'xstate';
import {
  FlowEngine,
  MemoryTaskStore,
  defineTool,
  type EarlierVersion,
  type TaskQueue,
  type TaskRecord,
  type ToolDefinition,
} from '../../../server/engine/index.js';
import { JsonSchemaValidator } from '../../../server/engine/json-schema-validator.js';
import { TaskManager } from '../../../server/engine/tasks/task-manager.js';
import type { ScheduleOptions } from '../../../server/engine/tasks/task-queue.js';
import { TaskRunner } from '../../../server/engine/tasks/task-runner.js';
import { testKeyRing } from '../fixtures/keys.js';
import { recordingLogger } from '../fixtures/engines.js';
import { surveyV1Machine, surveyV2Machine, toV2 } from '../fixtures/versioned-machines.js';

const OWNER = 'alice';
const WAIT_MS = 60_000;
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

function surveyTask(machine: AnyStateMachine = surveyV1Machine, versions?: EarlierVersion[]): ToolDefinition {
  return defineTool({
    name: 'survey',
    description: 'Asks a name, then a colour (v2: a nickname between).',
    inputSchema: { type: 'object' },
    task: 'required',
    machine,
    ...(versions ? { versions } : {}),
  });
}

/** One store and one queue, and a runner per build; jobs run by hand, on a wall clock the test moves. */
class Fleet {
  readonly store = new MemoryTaskStore();
  readonly jobs: Array<ScheduleOptions & { taskId: string }> = [];
  readonly logger = recordingLogger();
  wall = 1_800_000_000_000;
  readonly #engine = new FlowEngine({ keyRing: testKeyRing() });
  readonly versionOf = (machine: Parameters<FlowEngine['versionOf']>[0]) => this.#engine.versionOf(machine);
  readonly #queue: TaskQueue = {
    schedule: async (taskId, options) => {
      if (!this.jobs.some((job) => job.taskId === taskId && job.jobKey === options.jobKey)) {
        this.jobs.push({ taskId, ...options });
      }
    },
    start() {},
    close: async () => {},
  };
  readonly #toWireError = (error: { reason: string; message: string }) => ({
    code: -32603,
    message: error.message,
    data: { reason: error.reason },
  });
  readonly manager = new TaskManager({
    store: this.store,
    queue: this.#queue,
    versionOf: this.versionOf,
    toWireError: this.#toWireError,
  });

  build(tool: ToolDefinition): TaskRunner {
    return new TaskRunner({
      store: this.store,
      queue: this.#queue,
      tools: { get: (name) => (name === tool.name ? tool : undefined), checkResult: () => undefined },
      versionOf: this.versionOf,
      validator: new JsonSchemaValidator(),
      toWireError: this.#toWireError,
      wallClock: () => this.wall,
      logger: this.logger,
      versionWaitMs: WAIT_MS,
    });
  }

  /** A task of `tool` from its first state (its first step asks), queued and not run. */
  async create(tool: ToolDefinition): Promise<string> {
    const actor = createActor(tool.machine, { input: {} }).start();
    const snapshot = actor.getPersistedSnapshot() as Record<string, unknown>;
    actor.stop();
    const created = await this.manager.create({
      tool: tool.name,
      machine: tool.machine,
      arguments: {},
      principal: OWNER,
      clientCapabilities: { elicitation: { form: {} } },
      snapshot,
      timers: [],
    });
    return created.taskId as string;
  }

  /** Runs every job due now on `runner`, those it schedules for now included. */
  async run(runner: TaskRunner): Promise<void> {
    for (;;) {
      const due = this.jobs.findIndex((job) => (job.runAt ?? 0) <= this.wall && job.jobKey !== 'expire');
      if (due < 0) return;
      const [job] = this.jobs.splice(due, 1);
      // Each job here starts once: a job left for another build is queued again under a new key.
      await runner.advance(job!.taskId, `${job!.taskId}.${job!.jobKey}`, 1);
    }
  }

  async answer(taskId: string, responses: Record<string, unknown>): Promise<void> {
    expect(await this.manager.update(taskId, OWNER, responses)).to.equal(true);
  }

  async record(taskId: string): Promise<TaskRecord> {
    return (await this.store.get(taskId))!;
  }
}

/** A v1 task answered up to its colour question, on a v1 build. */
async function waitingOnColor(fleet: Fleet): Promise<string> {
  const v1 = fleet.build(surveyTask());
  const taskId = await fleet.create(surveyTask());
  await fleet.run(v1);
  expect(Object.keys((await fleet.record(taskId)).asked)).to.deep.equal(['name']);
  await fleet.answer(taskId, { name: accept({ name: 'Ada' }) });
  await fleet.run(v1);
  expect(Object.keys((await fleet.record(taskId)).asked)).to.deep.equal(['color']);
  return taskId;
}

describe('TaskRunner: earlier versions', () => {
  it('runs a task of a kept version on its machine, to its own result', async () => {
    const fleet = new Fleet();
    const taskId = await waitingOnColor(fleet);
    const v2 = fleet.build(surveyTask(surveyV2Machine, [{ machine: surveyV1Machine }]));
    await fleet.answer(taskId, { color: accept({ color: 'red' }) });
    await fleet.run(v2);
    const record = await fleet.record(taskId);
    expect(record.status).to.equal('completed');
    expect(record.result?.structuredContent).to.deep.equal({ name: 'Ada', color: 'red' });
    expect(fleet.logger.events).to.include('task_version_kept');
  });

  it('migrates a task at a step boundary, and records the current version at its next pause', async () => {
    const fleet = new Fleet();
    const v1 = fleet.build(surveyTask());
    const taskId = await fleet.create(surveyTask());
    await fleet.run(v1);
    const v2 = fleet.build(surveyTask(surveyV2Machine, [{ version: fleet.versionOf(surveyV1Machine), migrate: toV2 }]));
    await fleet.answer(taskId, { name: accept({ name: 'Ada' }) });
    await fleet.run(v2);
    const record = await fleet.record(taskId);
    expect(Object.keys(record.asked)).to.deep.equal(['nickname']);
    expect(record.version).to.equal(fleet.versionOf(surveyV2Machine));
    expect(fleet.logger.events).to.include('task_version_migrated');
  });

  it('leaves a task of a version it cannot run for a build that can, which runs it', async () => {
    const fleet = new Fleet();
    const taskId = await waitingOnColor(fleet);
    const v2 = fleet.build(surveyTask(surveyV2Machine));
    await fleet.answer(taskId, { color: accept({ color: 'red' }) });
    await fleet.run(v2);
    const left = await fleet.record(taskId);
    expect(left.status).to.equal('working');
    expect(left.phase).to.equal('queued');
    const retry = fleet.jobs.find((job) => job.jobKey.startsWith('v'));
    expect(retry?.runAt).to.be.greaterThan(fleet.wall);
    // The retry is taken by a worker of the old build, which knows the version.
    fleet.wall = retry!.runAt!;
    await fleet.run(fleet.build(surveyTask()));
    const done = await fleet.record(taskId);
    expect(done.status).to.equal('completed');
    expect(done.result?.structuredContent).to.deep.equal({ name: 'Ada', color: 'red' });
  });

  it('fails the task once no build that can run it took it within the wait, never running it here', async () => {
    const fleet = new Fleet();
    const taskId = await waitingOnColor(fleet);
    const v2 = fleet.build(surveyTask(surveyV2Machine));
    await fleet.answer(taskId, { color: accept({ color: 'red' }) });
    const start = fleet.wall;
    for (let looks = 0; looks < 100; looks++) {
      await fleet.run(v2);
      if ((await fleet.record(taskId)).status !== 'working') break;
      fleet.wall = Math.max(...fleet.jobs.map((job) => job.runAt ?? 0).filter((at) => at < start + 10 * WAIT_MS));
    }
    const record = await fleet.record(taskId);
    expect(record.status).to.equal('failed');
    expect(record.error).to.deep.include({ data: { reason: 'internal' } });
    expect(fleet.wall - start).to.be.at.least(WAIT_MS);
    // v2's machine never ran: it would have asked for a nickname (input_required), not failed.
    expect(record.result).to.equal(undefined);
    expect(fleet.logger.events).to.include('task_version_unknown');
  });

  it('leaves a task of a tool this build does not serve, as one of an unknown version', async () => {
    const fleet = new Fleet();
    const taskId = await waitingOnColor(fleet);
    const other = fleet.build(defineTool({ ...surveyTask(), name: 'other' }));
    await fleet.answer(taskId, { color: accept({ color: 'red' }) });
    await fleet.run(other);
    expect((await fleet.record(taskId)).status).to.equal('working');
    expect(fleet.jobs.some((job) => job.jobKey.startsWith('v'))).to.equal(true);
  });
});
