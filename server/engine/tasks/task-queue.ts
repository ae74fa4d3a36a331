/**
 * How task steps get run: a job names a task, and the processor advances it (task-runner.ts).
 * The in-process queue serves one instance; BullMQ serves a fleet, where any instance may run any
 * job and a job whose instance died is run again elsewhere (stalled-job recovery).
 */
export interface ScheduleOptions {
  /** Unique per task and reason: scheduling the same key twice while it waits runs it once. */
  jobKey: string;
  /** When to run, in ms since the epoch (a durable timer); now when absent. */
  runAt?: number;
}

/**
 * Advances one task; `jobId` is the same when a job is run again after its worker died. `attempt`
 * counts the starts of that job, 1 for the first: a later start follows a crash, a stall or a retry,
 * and may overlap an earlier run of the same job that still goes on (task-claims.ts).
 */
export type TaskProcessor = (taskId: string, jobId: string, attempt: number) => Promise<void>;

/** The key of a task's first step, queued as the task is stored. */
export const START_JOB_KEY = 'start';

/** The id both queues give the job of `taskId` scheduled under `jobKey`: known before it is queued. */
export function jobIdOf(taskId: string, jobKey: string): string {
  return `${taskId}.${jobKey}`;
}

/** Runs task steps: `MemoryTaskQueue` in one process, `BullMqTaskQueue` across a fleet. */
export interface TaskQueue {
  schedule(taskId: string, options: ScheduleOptions): Promise<void>;
  start(processor: TaskProcessor): void;
  close(): Promise<void>;
  /** Jobs queued and not yet running, for the `baton.task.queue.depth` gauge. */
  depth?(): Promise<number> | number;
  /** Jobs scheduled for later (durable timers, expiry checks), for `baton.task.timers.pending`. */
  timersPending?(): Promise<number> | number;
}
