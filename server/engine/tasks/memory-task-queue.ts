/**
 * The default queue: jobs run in this process, timers are `setTimeout`s. Nothing survives a
 * restart (start-up warns when tasks are served this way).
 */
import type { ScheduleOptions, TaskProcessor, TaskQueue } from './task-queue.js';

/** setTimeout holds at most 2^31-1 ms; a later job re-arms when that elapses. */
const MAX_TIMEOUT = 2 ** 31 - 1;

/**
 * `runAt` is wall-clock time, as XState's timers are (an injected test clock moves task
 * timestamps and TTLs, never timers).
 */
export class MemoryTaskQueue implements TaskQueue {
  readonly #pending = new Map<string, NodeJS.Timeout>();
  /** When each pending job is due, for the gauges. */
  readonly #due = new Map<string, number>();
  #processor: TaskProcessor | undefined;
  #closed = false;

  async schedule(taskId: string, options: ScheduleOptions): Promise<void> {
    const jobId = `${taskId}.${options.jobKey}`;
    if (this.#closed || this.#pending.has(jobId)) return;
    this.#arm(jobId, taskId, options.runAt ?? 0);
  }

  start(processor: TaskProcessor): void {
    this.#processor = processor;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
    this.#due.clear();
  }

  depth(): number {
    const now = Date.now();
    let due = 0;
    for (const runAt of this.#due.values()) if (runAt <= now) due++;
    return due;
  }

  timersPending(): number {
    return this.#due.size - this.depth();
  }

  #arm(jobId: string, taskId: string, runAt: number): void {
    const delay = Math.max(0, runAt - Date.now());
    const timer = setTimeout(
      () => {
        if (runAt - Date.now() > 0) return this.#arm(jobId, taskId, runAt);
        this.#pending.delete(jobId);
        this.#due.delete(jobId);
        // Errors are the processor's to record on the task; one must never stop the queue.
        void this.#processor?.(taskId, jobId).catch(() => {});
      },
      Math.min(delay, MAX_TIMEOUT),
    );
    timer.unref();
    this.#pending.set(jobId, timer);
    this.#due.set(jobId, runAt);
  }
}
