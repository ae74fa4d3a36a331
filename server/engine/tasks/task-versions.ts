/**
 * Which machine a task's step runs on. A task record names the structural version its snapshot
 * was made by; a step runs on that version only: the tool's current machine when it is current,
 * a kept earlier machine, or the current machine from a migrated snapshot (versions/). A build
 * with none of these (a rolling deploy: the version belongs to an older or newer build, or the
 * tool is not served here) leaves the job for a worker of another build for a bounded time, and
 * then fails the task with a message. Restarting would repeat the effects already done, so a
 * task never restarts, and never runs on another version's machine.
 */
import type { AnyStateMachine } from 'xstate';
import type { Logger } from '../logger.js';
import type { ToolDefinition } from '../authoring/tool-definition.js';
import { VersionRoutes, type Continuation } from '../versions/version-routes.js';
import type { TaskQueue } from './task-queue.js';
import type { TaskRecord } from './task-record.js';

/** How often a job left for another build's worker is looked at again. */
const VERSION_RETRY_MS = 2000;
export const DEFAULT_VERSION_WAIT_MS = 10 * 60 * 1000;
/** The job id of a job left for another build ends in `.v<first look>.<this look>` (wall-clock ms). */
const LEFT_JOB = /\.v(\d+)\.\d+$/;

/** How a step runs: on which machine, from which snapshot, and the version its next pause records. */
export interface StepBasis {
  machine: AnyStateMachine;
  snapshot: unknown;
  version: string;
}

export interface TaskVersionsOptions {
  tools: { get(name: string): ToolDefinition | undefined };
  versionOf: (machine: AnyStateMachine) => string;
  queue: TaskQueue;
  logger: Logger;
  wallClock: () => number;
  /** How long a job is left for another build, from the first look (wall-clock ms). */
  waitMs: number;
}

export class TaskVersions {
  readonly #o: TaskVersionsOptions;
  readonly #routes: VersionRoutes;

  constructor(options: TaskVersionsOptions) {
    this.#o = options;
    this.#routes = new VersionRoutes(options.versionOf);
  }

  /**
   * What the task's next step runs from, or undefined when this build cannot run its version.
   * `log`: say how an earlier version goes on (once per step, not for the look before a claim).
   */
  basis(record: TaskRecord, log = false): StepBasis | undefined {
    const tool = this.#o.tools.get(record.tool);
    if (!tool) return undefined;
    const current = this.#o.versionOf(tool.machine);
    if (current === record.version) return { machine: tool.machine, snapshot: record.snapshot, version: current };
    const next = this.#routes.continuation(tool, record.version, record.snapshot, record.arguments);
    if (log) this.#log(record, next);
    if (next.kind === 'kept') return { machine: next.machine, snapshot: record.snapshot, version: record.version };
    if (next.kind === 'migrated') return { machine: tool.machine, snapshot: next.snapshot, version: current };
    return undefined;
  }

  /**
   * Leaves the job for a worker of another build: it is looked at again shortly, by whichever
   * worker takes it, up to `waitMs` from the first look. Resolves false once that time is up:
   * the step then runs here and fails the task.
   */
  async leave(record: TaskRecord, jobId: string): Promise<boolean> {
    const now = this.#o.wallClock();
    const since = Number(LEFT_JOB.exec(jobId)?.[1] ?? now);
    if (now - since >= this.#o.waitMs) return false;
    this.#o.logger.info('task_version_unknown', { taskId: record.taskId, tool: record.tool, version: record.version });
    await this.#o.queue.schedule(record.taskId, { jobKey: `v${since}.${now}`, runAt: now + VERSION_RETRY_MS });
    return true;
  }

  #log(record: TaskRecord, next: Continuation): void {
    const fields = { taskId: record.taskId, tool: record.tool, version: record.version };
    if (next.kind !== 'migrated' && next.problem !== undefined) {
      this.#o.logger.warn('task_migration_failed', { ...fields, label: next.route?.label, problem: next.problem });
    }
    if (next.kind !== 'unknown')
      this.#o.logger.info(`task_version_${next.kind}`, { ...fields, label: next.route.label });
  }
}
