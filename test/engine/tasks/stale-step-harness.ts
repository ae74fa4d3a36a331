/**
 * A task runner driven by hand, for runs of one step that overlap in one process: every step's
 * work waits on a gate the test opens, jobs are kept in a list the test runs, and every record the
 * store writes is kept in order. No sleeping: the wall clock timers read is moved instead.
 */
import { fromPromise, setup } from 'xstate';
import {
  askForm,
  defineTool,
  FlowEngine,
  MemoryTaskStore,
  reportProgress,
  ToolRegistry,
  type AnswerEvent,
  type TaskRecord,
} from '../../../server/engine/index.js';
import { JsonSchemaValidator } from '../../../server/engine/json-schema-validator.js';
import { TaskManager } from '../../../server/engine/tasks/task-manager.js';
import type { ScheduleOptions, TaskQueue } from '../../../server/engine/tasks/task-queue.js';
import { TaskRunner } from '../../../server/engine/tasks/task-runner.js';
import { testKeyRing } from '../fixtures/keys.js';

export const OWNER = 'alice';
export const GO = { go: { action: 'accept', content: { go: true } } };

export interface Gate {
  readonly promise: Promise<void>;
  open(): void;
  /** Ends the work it holds with an error (the machine handles none: the step fails). */
  fail(): void;
}

export function gate(): Gate {
  let open!: () => void;
  let fail!: () => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = () => reject(new Error('work failed'));
  });
  promise.catch(() => {});
  return { promise, open, fail };
}

/** Stores in memory and keeps a copy of every record it writes, in order. */
class RecordingStore extends MemoryTaskStore {
  readonly writes: TaskRecord[] = [];
  override update(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
    options?: Parameters<MemoryTaskStore['update']>[2],
  ) {
    return super.update(
      taskId,
      (record) => {
        const next = change(record);
        if (next) this.writes.push(structuredClone(next));
        return next;
      },
      options,
    );
  }
}

interface Job extends ScheduleOptions {
  taskId: string;
}

export class StaleStepHarness {
  readonly store = new RecordingStore();
  /** Jobs scheduled and not run yet; one per key, as the queues keep them. */
  readonly jobs: Job[] = [];
  /** How far the wall clock (timers, delayed jobs) is ahead of Date.now. */
  wallAhead = 0;
  /** How far the task clock (timestamps, TTLs) is ahead of Date.now. */
  clockAhead = 0;
  /** Gates the next runs of `work` (of `effect`) wait on, in order; without one they go on at once. */
  readonly workGates: Gate[] = [];
  readonly effectGates: Gate[] = [];
  /** The abort signal of every run of `work`, in the order they started. */
  readonly workSignals: AbortSignal[] = [];
  effects = 0;
  readonly #gates: Gate[] = [];
  /** Starts of each job id so far, as BullMQ counts them. */
  readonly #starts = new Map<string, number>();
  readonly #started: Array<() => void> = [];
  readonly tool = defineTool({
    name: 'work-then-ask',
    description: 'Works, asks to go on, rests 5 s on a durable timer, then does its effect.',
    inputSchema: { type: 'object' },
    task: 'required',
    safeActors: ['work', 'effect'],
    machine: setup({
      types: {} as { events: AnswerEvent },
      actors: {
        work: fromPromise<void>(({ signal }) =>
          this.#gated(this.workGates.shift(), signal, () => this.#workStarted(signal)),
        ),
        effect: fromPromise<void>(({ signal }) => this.#gated(this.effectGates.shift(), signal, () => this.effects++)),
      },
    }).createMachine({
      id: 'workThenAsk',
      initial: 'working',
      states: {
        working: {
          invoke: {
            src: 'work',
            onDone: { target: 'asking', actions: reportProgress({ progress: 1, total: 1, message: 'Worked' }) },
          },
        },
        asking: askForm({
          key: 'go',
          message: 'Go on?',
          schema: { type: 'object', properties: { go: { type: 'boolean' } } },
          onAccept: 'resting',
          onDecline: 'done',
        }),
        resting: { after: { 5000: 'acting' } },
        acting: { invoke: { src: 'effect', onDone: 'done' } },
        done: { type: 'final' },
      },
    }),
  });
  readonly #engine = new FlowEngine({ keyRing: testKeyRing() });
  readonly #queue: TaskQueue = {
    schedule: async (taskId, options) => {
      if (!this.jobs.some((job) => job.taskId === taskId && job.jobKey === options.jobKey)) {
        this.jobs.push({ taskId, ...options });
      }
    },
    start() {},
    close: async () => {},
  };
  readonly #common = {
    store: this.store,
    queue: this.#queue,
    versionOf: (machine: Parameters<FlowEngine['versionOf']>[0]) => this.#engine.versionOf(machine),
    clock: () => Date.now() + this.clockAhead,
    toWireError: (error: { reason: string; message: string }) => ({
      code: -32603,
      message: error.message,
      data: { reason: error.reason },
    }),
  };
  readonly runner: TaskRunner;
  readonly manager = new TaskManager(this.#common);

  /** `handedStartWriteMs`: when a first run writes its start alone (TaskRunnerOptions). */
  constructor(options: { handedStartWriteMs?: number } = {}) {
    this.runner = new TaskRunner({
      ...this.#common,
      tools: new ToolRegistry([this.tool]),
      validator: new JsonSchemaValidator(),
      wallClock: () => Date.now() + this.wallAhead,
      ...options,
    });
  }

  /** Creates the task where its first round hands over; its first job (`start`) is queued, not run. */
  async createTask(): Promise<string> {
    const outcome = await this.#engine.run({
      flow: this.tool,
      arguments: {},
      principal: OWNER,
      clientCapabilities: {},
      handover: true,
    });
    if (outcome.kind !== 'task') throw new Error(`expected a handover, got ${outcome.kind}`);
    const created = await this.manager.create({
      tool: this.tool.name,
      machine: this.tool.machine,
      arguments: {},
      principal: OWNER,
      clientCapabilities: { elicitation: {} },
      snapshot: outcome.snapshot,
      timers: outcome.timers,
    });
    return created.taskId as string;
  }

  /**
   * Runs the job with this key, as the queue would (a job's id is `<taskId>.<jobKey>`): a job run
   * again counts as its next start, as BullMQ counts them.
   */
  advance(taskId: string, jobKey: string): Promise<void> {
    const queued = this.jobs.findIndex((job) => job.taskId === taskId && job.jobKey === jobKey);
    if (queued >= 0) this.jobs.splice(queued, 1);
    const jobId = `${taskId}.${jobKey}`;
    const attempt = (this.#starts.get(jobId) ?? 0) + 1;
    this.#starts.set(jobId, attempt);
    return this.runner.advance(taskId, jobId, attempt);
  }

  /** Runs every job due on the wall clock, those they schedule included, one at a time. */
  async runDue(): Promise<void> {
    for (;;) {
      const now = Date.now() + this.wallAhead;
      const due = this.jobs.findIndex((job) => (job.runAt ?? 0) <= now);
      if (due < 0) return;
      const job = this.jobs[due]!;
      await this.advance(job.taskId, job.jobKey);
    }
  }

  /** The next run of `work` waits until the test opens the gate returned. */
  holdWork(): Gate {
    const held = gate();
    this.#gates.push(held);
    this.workGates.push(held);
    return held;
  }

  /** The next run of `effect` waits until the test opens the gate returned. */
  holdEffect(): Gate {
    const held = gate();
    this.#gates.push(held);
    this.effectGates.push(held);
    return held;
  }

  /** Resolves once `count` runs of `work` have started. */
  async workStarted(count: number): Promise<void> {
    while (this.workSignals.length < count) await new Promise<void>((resolve) => this.#started.push(resolve));
  }

  /** Whether `probe` holds within `turns` turns of the event loop (no clock involved). */
  async within(turns: number, probe: () => boolean): Promise<boolean> {
    for (let turn = 0; turn < turns && !probe(); turn++) await new Promise((resolve) => setImmediate(resolve));
    return probe();
  }

  async record(taskId: string): Promise<TaskRecord> {
    return (await this.store.get(taskId))!;
  }

  /** The records written from index `from` on. */
  writesSince(from: number): TaskRecord[] {
    return this.store.writes.slice(from);
  }

  close(): void {
    this.runner.close();
    for (const held of this.#gates) held.open();
  }

  #workStarted(signal: AbortSignal): void {
    this.workSignals.push(signal);
    for (const resolve of this.#started.splice(0)) resolve();
  }

  #gated(held: Gate | undefined, signal: AbortSignal, onStart: () => void): Promise<void> {
    onStart();
    return new Promise<void>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      if (held) held.promise.then(resolve, reject);
      else resolve();
    });
  }
}
