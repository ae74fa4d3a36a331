/**
 * The default queue: jobs run in this process, timers are `setTimeout`s. Nothing survives a
 * restart (start-up warns when tasks are served this way).
 *
 * At most `concurrency` steps run at once (16, as BullMQ's workers); a job that comes due while
 * they all run waits its turn, first come first served. Without the bound, many tasks created at
 * once would run every step together and starve the requests this process also answers.
 */
import { jobIdOf, type ScheduleOptions, type TaskProcessor, type TaskQueue } from './task-queue.js';

/** setTimeout holds at most 2^31-1 ms; a later job re-arms when that elapses. */
const MAX_TIMEOUT = 2 ** 31 - 1;

export const DEFAULT_TASK_CONCURRENCY = 16;

/**
 * `runAt` is wall-clock time, as XState's timers are (an injected test clock moves task
 * timestamps and TTLs, never timers).
 */
export class MemoryTaskQueue implements TaskQueue {
  readonly #pending = new Map<string, NodeJS.Timeout>();
  /** Due jobs waiting for a free slot, in the order they came due. */
  readonly #ready: Array<{ jobId: string; taskId: string }> = [];
  readonly #concurrency: number;
  #running = 0;
  #processor: TaskProcessor | undefined;
  #closed = false;

  constructor(options: { concurrency?: number } = {}) {
    this.#concurrency = Math.max(1, options.concurrency ?? DEFAULT_TASK_CONCURRENCY);
  }

  async schedule(taskId: string, options: ScheduleOptions): Promise<void> {
    const jobId = jobIdOf(taskId, options.jobKey);
    if (this.#closed || this.#pending.has(jobId) || this.#ready.some((job) => job.jobId === jobId)) return;
    this.#arm(jobId, taskId, options.runAt ?? 0);
  }

  start(processor: TaskProcessor): void {
    this.#processor = processor;
    this.#drain();
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
    this.#ready.length = 0;
  }

  /** Jobs due and waiting for a free slot (the queue-depth gauge). */
  depth(): number {
    return this.#ready.length;
  }

  /** Jobs waiting for their time (durable timers, retries): the timers-pending gauge. */
  timersPending(): number {
    return this.#pending.size;
  }

  /** Steps running now (for tests and logs). */
  get running(): number {
    return this.#running;
  }

  #arm(jobId: string, taskId: string, runAt: number): void {
    const delay = Math.max(0, runAt - Date.now());
    const timer = setTimeout(
      () => {
        if (runAt - Date.now() > 0) return this.#arm(jobId, taskId, runAt);
        this.#pending.delete(jobId);
        this.#ready.push({ jobId, taskId });
        this.#drain();
      },
      Math.min(delay, MAX_TIMEOUT),
    );
    timer.unref();
    this.#pending.set(jobId, timer);
  }

  #drain(): void {
    const processor = this.#processor;
    while (processor && !this.#closed && this.#running < this.#concurrency && this.#ready.length > 0) {
      const { jobId, taskId } = this.#ready.shift()!;
      this.#running += 1;
      // Errors are the processor's to record on the task; one must never stop the queue.
      // One process, no retries: every job here starts once.
      void processor(taskId, jobId, 1)
        .catch(() => {})
        .finally(() => {
          this.#running -= 1;
          this.#drain();
        });
    }
  }
}
