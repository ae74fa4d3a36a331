/**
 * Every principal's tasks, for an operator (the console, `baton tasks`): listed a page at a time,
 * shown one by one, cancelled, and the stuck ones found. It reads and changes tasks only through
 * the TaskStore interface, so it sees exactly what the fleet sees (memory or Redis), and cancels
 * the way tasks/cancel does (task-cancel.ts). Who is an operator is decided before this is called
 * (server/http/operator-access.ts; for `baton tasks`, whoever holds the store's URL and keys).
 */
import type { Telemetry } from '../../telemetry/index.js';
import { cancelTask, type CancelOutcome } from './task-cancel.js';
import type { TaskListQuery, TaskPage } from './task-listing.js';
import type { TaskStore } from './task-store.js';
import { describeTask, type TaskDetail, type TaskSummary } from './task-summary.js';
import {
  DEFAULT_STUCK_THRESHOLDS,
  shortestQuiet,
  stuckReasons,
  type StuckReason,
  type StuckThresholds,
} from './stuck-tasks.js';

export interface OperatorTasksOptions {
  store: TaskStore;
  clock?: () => number;
  telemetry?: Telemetry | undefined;
  /** Records answers as tasks/update does, for any principal's task (TaskManager's); resolves with the keys taken. */
  answer?: (taskId: string, responses: Record<string, unknown>) => Promise<string[]>;
}

/** What the operator's explicit reveal shows: the caller's data, hidden everywhere else. */
export interface RevealedValues {
  arguments: Record<string, unknown>;
  /** Answers received to the questions still asked (earlier ones are not kept once fed in). */
  answers: Record<string, unknown>;
}

/** A question a task waits on, as a form in the console (`baton dev` only) is built from. */
export interface PendingQuestion {
  /** The wire key tasks/update answers. */
  key: string;
  questionKey: string;
  method: string;
  /** The question as asked: its message and, for a form, its requested schema. */
  message?: string;
  requestedSchema?: Record<string, unknown>;
}

export interface StuckTask extends TaskSummary {
  reasons: StuckReason[];
}

export interface StuckPage {
  tasks: StuckTask[];
  cursor?: string;
}

/** Task ids are 22 characters (128 random bits); anything far off is no task, and is not looked up. */
function isTaskId(taskId: unknown): taskId is string {
  return typeof taskId === 'string' && taskId.length > 0 && taskId.length <= 64;
}

export class OperatorTasks {
  readonly #store: TaskStore;
  readonly #clock: () => number;
  readonly #telemetry: Telemetry | undefined;
  readonly #answer: OperatorTasksOptions['answer'];

  constructor(options: OperatorTasksOptions) {
    this.#store = options.store;
    this.#answer = options.answer;
    this.#clock = options.clock ?? Date.now;
    this.#telemetry = options.telemetry;
  }

  /** The clock the stuck rules and ages are measured by. */
  now(): number {
    return this.#clock();
  }

  list(query?: TaskListQuery): Promise<TaskPage> {
    return this.#store.list(query);
  }

  /** One task's summary and result, or undefined when there is none. */
  async show(taskId: string): Promise<TaskDetail | undefined> {
    return isTaskId(taskId) ? this.#store.peek(taskId, describeTask) : undefined;
  }

  /**
   * Calls `onChange` with the id of every task that changes anywhere in the fleet (the store's
   * change channel, as subscriptions/listen hears it); returns the stop. Ids only: what changed
   * is read again through `show` or `list` by whoever asks.
   */
  listen(onChange: (taskId: string) => void): () => void {
    return this.#store.listen((taskId, kind) => {
      if (kind === 'changed') onChange(taskId);
    });
  }

  /** The task's arguments and the answers it holds: only for an operator's explicit, logged reveal. */
  async reveal(taskId: string): Promise<RevealedValues | undefined> {
    if (!isTaskId(taskId)) return undefined;
    return this.#store.peek(taskId, (r) => structuredClone({ arguments: r.arguments, answers: r.answers }));
  }

  /** The questions the task waits on (asked, not answered), or undefined when there is no such task. */
  async pending(taskId: string): Promise<PendingQuestion[] | undefined> {
    if (!isTaskId(taskId)) return undefined;
    return this.#store.peek(taskId, (r) =>
      r.status !== 'input_required'
        ? []
        : Object.entries(r.asked)
            .filter(([key]) => !Object.hasOwn(r.answers, key))
            .map(([key, asked]) => {
              const params = asked.request.params ?? {};
              return structuredClone({
                key,
                questionKey: asked.questionKey,
                method: asked.request.method,
                ...(typeof params.message === 'string' ? { message: params.message } : {}),
                ...(params.requestedSchema && typeof params.requestedSchema === 'object'
                  ? { requestedSchema: params.requestedSchema as Record<string, unknown> }
                  : {}),
              });
            }),
    );
  }

  /**
   * Answers a task's questions as tasks/update does (the same code), for any principal's task.
   * Resolves with the keys taken, or undefined when there is no such task.
   */
  async answer(taskId: string, responses: Record<string, unknown>): Promise<string[] | undefined> {
    if (!isTaskId(taskId) || !this.#answer || !(await this.#store.head(taskId))) return undefined;
    return this.#answer(taskId, responses);
  }

  /** Cancels any principal's task, as tasks/cancel does its owner's. */
  async cancel(taskId: string): Promise<CancelOutcome> {
    if (!isTaskId(taskId)) return 'missing';
    return cancelTask(this.#store, taskId, { clock: this.#clock, telemetry: this.#telemetry });
  }

  /**
   * A page of live tasks some stuck rule holds for (stuck-tasks.ts). Only the part of the index
   * quiet for long enough is read, oldest changes last, so a busy store costs what its quiet part does.
   */
  async stuck(
    options: {
      thresholds?: Partial<StuckThresholds> | undefined;
      tool?: string | undefined;
      limit?: number | undefined;
      cursor?: string | undefined;
    } = {},
  ): Promise<StuckPage> {
    const thresholds = { ...DEFAULT_STUCK_THRESHOLDS, ...options.thresholds };
    const now = this.#clock();
    const page = await this.#store.list({
      status: ['working', 'input_required'],
      tool: options.tool,
      changedBefore: now - shortestQuiet(thresholds),
      limit: options.limit,
      cursor: options.cursor,
    });
    const tasks = page.tasks
      .map((task) => ({ ...task, reasons: stuckReasons(task, now, thresholds) }))
      .filter((task) => task.reasons.length > 0);
    return { tasks, ...(page.cursor ? { cursor: page.cursor } : {}) };
  }
}
