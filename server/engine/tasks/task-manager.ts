/**
 * The tasks extension's operations, for the protocol layer: create a task where a round handed
 * over, read it, feed it answers, cancel it, and follow it. Every operation takes the caller's
 * principal and treats another principal's task exactly like an unknown one (tasks.md, Security).
 */
import type { AnyStateMachine } from 'xstate';
import { principalDigest, shortDigest } from '../state/canonical-digest.js';
import { isRecord } from '../plain-objects.js';
import type { ClientCapabilities } from '../mcp-shapes.js';
import type { TaskTimer } from '../round/index.js';
import { jobIdOf, START_JOB_KEY, type TaskQueue } from './task-queue.js';
import { handedClaim, mayRunHanded } from './task-claims.js';
import { cancelTask } from './task-cancel.js';
import { OperatorTasks } from './operator-tasks.js';
import {
  expiredOutcome,
  isTerminal,
  terminalFields,
  toCreatedTask,
  toDetailedTask,
  type TaskRecord,
  type ToWireError,
} from './task-record.js';
import type { TaskHead, TaskStore } from './task-store.js';
import type { Telemetry } from '../../telemetry/index.js';
import { TaskFollowers, taskView, type TaskView } from './task-followers.js';
import { pooledRandomBytes } from '../state/random-pool.js';
import { createdHistory, withHistory } from './task-history.js';

export interface TaskManagerOptions {
  store: TaskStore;
  queue: TaskQueue;
  versionOf: (machine: AnyStateMachine) => string;
  clock?: () => number;
  randomBytes?: (length: number) => Uint8Array;
  /** How long a task lives from its creation (ttlMs; BATON_TASK_TTL). Default 24 h. */
  ttlMs?: number;
  /** The polling interval suggested to clients (pollIntervalMs; BATON_TASK_POLL_MS). Default 1 s. */
  pollIntervalMs?: number;
  toWireError: ToWireError;
  telemetry?: Telemetry;
}

export interface NewTask {
  tool: string;
  machine: AnyStateMachine;
  arguments: Record<string, unknown>;
  principal: string;
  /**
   * Who the task counts against for the quotas (task-quotas.ts): the principal, or the client
   * address of an anonymous caller (protocol's callerKey). Defaults to the principal.
   */
  owner?: string;
  clientCapabilities: ClientCapabilities;
  snapshot: Record<string, unknown>;
  timers: TaskTimer[];
  /** The creating call's trace context, sealed by its round (telemetry/trace-context.ts). */
  traceContext?: string;
}

export const DEFAULT_TASK_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_POLL_INTERVAL_MS = 1000;

export class TaskManager {
  readonly #o: TaskManagerOptions;
  readonly #clock: () => number;
  readonly #random: (length: number) => Uint8Array;
  readonly #followers: TaskFollowers;
  /** Every principal's tasks, for operators (the console): the same store, cancelled the same way. */
  readonly operator: OperatorTasks;

  constructor(options: TaskManagerOptions) {
    this.#o = options;
    this.#followers = new TaskFollowers(options.store);
    this.#clock = options.clock ?? Date.now;
    this.#random = options.randomBytes ?? pooledRandomBytes();
    this.operator = new OperatorTasks({
      store: options.store,
      clock: this.#clock,
      telemetry: options.telemetry,
      // An operator's answer (the console, in `baton dev`) takes the path tasks/update takes.
      answer: (taskId, responses) => this.#answer(taskId, responses),
    });
  }

  get ttlMs(): number {
    return this.#o.ttlMs ?? DEFAULT_TASK_TTL_MS;
  }

  /** Stores the task and queues its first step; resolves with the `CreateTaskResult` fields. */
  async create(task: NewTask): Promise<Record<string, unknown>> {
    const now = this.#clock();
    // 128 random bits: unguessable, so an id alone reveals and grants nothing (tasks.md, Security).
    const taskId = Buffer.from(this.#random(16)).toString('base64url');
    const record: TaskRecord = {
      taskId,
      principal: principalDigest(task.principal),
      owner: shortDigest(`owner\u0000${task.owner ?? task.principal}`),
      tool: task.tool,
      arguments: task.arguments,
      version: this.#o.versionOf(task.machine),
      clientCapabilities: task.clientCapabilities,
      status: 'working',
      phase: 'queued',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.#o.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
      snapshot: task.snapshot,
      timers: task.timers,
      asked: {},
      answers: {},
      askCounts: {},
      cancelRequested: false,
      ...(task.traceContext === undefined ? {} : { traceContext: task.traceContext }),
      history: createdHistory(task.snapshot),
      // The first step's claim, for its job to take without writing (task-claims.ts).
      ...handedClaim(jobIdOf(taskId, START_JOB_KEY)),
    };
    // Durable before it is announced: a tasks/get right after this resolves finds it anywhere.
    // Over a quota, the store refuses it (TaskLimitError) and nothing is stored or queued.
    await this.#o.store.create(record);
    // An idle task still fails when its ttl runs out: the store keeps its deadline for the expiry
    // sweep (expiry-sweep.ts), no job of its own.
    await this.#o.queue.schedule(taskId, { jobKey: START_JOB_KEY });
    this.#o.telemetry?.metrics?.taskStatus('working', record.tool);
    return toCreatedTask(record);
  }

  /** The detailed task, or undefined when it does not exist for this principal. */
  async get(taskId: string, principal: string): Promise<Record<string, unknown> | undefined> {
    return this.#read(taskId, principal, toDetailedTask);
  }

  /** The tool a task runs, or undefined when it does not exist for this principal (for scope checks). */
  async toolOf(taskId: unknown, principal: string): Promise<string | undefined> {
    return (await this.#owned(taskId, principal))?.tool;
  }

  /**
   * Records answers to outstanding questions (tasks.md, tasks/update): keys never issued, already
   * answered or superseded are ignored; once every outstanding question has an answer the task
   * goes back to work. Resolves false when the task does not exist for this principal.
   */
  async update(taskId: string, principal: string, responses: Record<string, unknown>): Promise<boolean> {
    const status = await this.#read(taskId, principal, (r) => r.status);
    if (status === undefined) return false;
    if (status !== 'input_required') return true;
    await this.#answer(taskId as string, responses);
    return true;
  }

  /**
   * Records answers to a task's outstanding questions, whoever's task it is (checked before):
   * resolves with the keys taken (keys never issued, already answered or superseded are ignored).
   */
  async #answer(taskId: string, responses: Record<string, unknown>): Promise<string[]> {
    let taken: string[] = [];
    let resumed = false;
    let changed = false;
    const stored = await this.#o.store.update(
      taskId,
      (r) => {
        resumed = false;
        changed = false;
        taken = [];
        if (r.status !== 'input_required' || r.phase !== 'idle') return undefined;
        const answers = { ...r.answers };
        const now = this.#clock();
        // Times of the questions still asked only: keys of earlier pauses are dropped, so it stays bounded.
        const answeredAt: Record<string, number> = {};
        for (const key of Object.keys(r.asked)) {
          if (r.answeredAt?.[key] !== undefined) answeredAt[key] = r.answeredAt[key];
        }
        const keys: string[] = [];
        for (const [key, value] of Object.entries(responses)) {
          if (Object.hasOwn(r.asked, key) && !Object.hasOwn(answers, key)) {
            answers[key] = value;
            answeredAt[key] = now;
            keys.push(key);
            changed = true;
          }
        }
        if (!changed) return undefined;
        taken = keys;
        resumed = Object.keys(r.asked).every((key) => Object.hasOwn(answers, key));
        return {
          ...r,
          answers,
          answeredAt,
          lastUpdatedAt: now,
          history: withHistory(r, now, { e: 'answered', k: keys }),
          ...(resumed
            ? { status: 'working' as const, phase: 'queued' as const, statusMessage: 'Answers received' }
            : {}),
        };
        // Announced by the write itself (task-store.ts), only when it stores the answers.
      },
      { announce: 'changed' },
    );
    if (stored && changed && resumed) {
      this.#o.telemetry?.metrics?.taskStatus('working', stored.tool);
      await this.#o.queue.schedule(taskId, { jobKey: `a${stored.lastUpdatedAt}` });
    }
    return stored && changed ? taken : [];
  }

  /**
   * Asks the task to stop (tasks.md, tasks/cancel: cooperative). A task waiting for answers or
   * timers is cancelled at once; a running step is aborted through its AbortSignal wherever it
   * runs. Resolves false when the task does not exist for this principal.
   */
  async cancel(taskId: string, principal: string): Promise<boolean> {
    const terminal = await this.#read(taskId, principal, isTerminal);
    if (terminal === undefined) return false;
    if (!terminal) await cancelTask(this.#o.store, taskId, { clock: this.#clock, telemetry: this.#o.telemetry });
    return true;
  }

  /**
   * Calls `onTask` with the task's view (task-followers.ts: read and serialized once for every
   * follower) each time one of `taskIds` changes, for this principal's tasks only. Resolves with
   * the ids followed (the others look unknown) and the function that stops following. The caller
   * caps the list (subscriptions-listen.ts); each distinct id costs one look-up of its head.
   */
  async follow(
    taskIds: string[],
    principal: string,
    onTask: (view: TaskView) => void,
  ): Promise<{ followed: string[]; stop: () => void }> {
    const followed: string[] = [];
    for (const id of new Set(taskIds)) if (await this.#owned(id, principal)) followed.push(id);
    const digest = principalDigest(principal);
    const stops = followed.map((taskId) => this.#followers.add(taskId, digest, onTask));
    return { followed, stop: () => stops.forEach((stop) => stop()) };
  }

  /** The task's current view, as `follow` delivers it, or undefined when it does not exist for this principal. */
  async view(taskId: string, principal: string): Promise<TaskView | undefined> {
    return this.#read(taskId, principal, taskView);
  }

  /**
   * The task's head when it is this principal's: the yes/no every operation asks first, at the
   * cost of a few bytes whatever the record holds (task-store.ts, head).
   */
  async #owned(taskId: unknown, principal: string): Promise<TaskHead | undefined> {
    if (!isTaskId(taskId)) return undefined;
    const head = await this.#o.store.head(taskId);
    return head && head.principal === principalDigest(principal) ? head : undefined;
  }

  /**
   * `read` of this principal's task: one read of the store, without copying the record
   * (task-store.ts, peek). A task whose ttl ran out while nothing ran it is failed first, rather
   * than when the expiry sweep comes to it.
   */
  async #read<T>(
    taskId: unknown,
    principal: string,
    read: (record: Readonly<TaskRecord>) => T,
  ): Promise<T | undefined> {
    if (!isTaskId(taskId)) return undefined;
    const digest = principalDigest(principal);
    const ours = (r: Readonly<TaskRecord>) => r.principal === digest;
    const seen = await this.#o.store.peek(taskId, (r) => {
      if (!ours(r)) return undefined;
      return !isTerminal(r) && this.#clock() >= r.createdAt + r.ttlMs ? EXPIRED : { value: read(r) };
    });
    if (seen !== EXPIRED) return seen?.value;
    await this.expire(taskId);
    return this.#o.store.peek(taskId, (r) => (ours(r) ? read(r) : undefined));
  }

  /** Ends a task whose ttl ran out, unless it has ended; a running step is stopped and ends it itself. */
  async expire(taskId: string): Promise<void> {
    // Not yet, by this instance's clock (clocks differ a little between instances): the sweep hands
    // it out again once its lease is over.
    const due = (r: Readonly<TaskRecord>) => this.#clock() >= r.createdAt + r.ttlMs;
    const phase = await this.#o.store.peek(taskId, (r) => (isTerminal(r) || !due(r) ? 'left' : r.phase));
    if (phase === undefined || phase === 'left') return;
    if (phase === 'running') {
      // Its step is stopped wherever it runs; the runner then records the expiry.
      return void (await this.#o.store.publish(taskId, 'cancel'));
    }
    let expired = false;
    let handed = false;
    const stored = await this.#o.store.update(
      taskId,
      (r) => {
        expired = !(isTerminal(r) || r.phase === 'running') && due(r);
        if (!expired) return undefined;
        handed = mayRunHanded(r);
        const now = this.#clock();
        return {
          ...r,
          ...terminalFields(),
          ...expiredOutcome(r, this.#o.toWireError),
          lastUpdatedAt: now,
          history: withHistory(r, now, { e: 'expired' }),
        };
      },
      // Announced by the write itself, only when it stores the expiry.
      { announce: 'changed' },
    );
    if (stored && expired) this.#o.telemetry?.metrics?.taskStatus('failed', stored.tool);
    // Its first step may have started on the claim the task was stored with, not written yet.
    if (stored && expired && handed) await this.#o.store.publish(taskId, 'cancel');
  }
}

/** The ttl ran out on a task not yet terminal (TaskManager's #read). */
const EXPIRED = Symbol('expired');

/** Task ids are 22 characters (128 random bits); anything far off is no task, and is not looked up. */
function isTaskId(taskId: unknown): taskId is string {
  return typeof taskId === 'string' && taskId.length > 0 && taskId.length <= 64;
}

/** Whether a request's `_meta` client capabilities declare the tasks extension. */
export function declaresTasks(clientCapabilities: ClientCapabilities): boolean {
  const extensions = clientCapabilities.extensions;
  return isRecord(extensions) && isRecord(extensions[TASKS_EXTENSION]);
}

/** The tasks extension's identifier, as clients declare it in their capabilities' `extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
