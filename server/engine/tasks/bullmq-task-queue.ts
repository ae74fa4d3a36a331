/**
 * Task steps on BullMQ (Redis): every instance adds jobs and runs a worker. A delayed job is a
 * durable timer that fires whichever instance is alive; a job whose worker stops renewing its lock
 * (the instance died) is moved back to wait by BullMQ's stalled-job check and run again, with the
 * same job id, on another instance, which continues from the task's last persisted snapshot.
 *
 * The job may also come back to the very instance whose first run of it still goes on (a frozen
 * instance wakes, finds its lock lost, and takes its own job again). BullMQ's worker renews locks by
 * job id, one entry a job, which the later run replaces and any run's end deletes: a stale run
 * ending first would stop renewing the lock of the run that took over, and that run would be
 * handed out again in its turn. So a run here returns only once every later run of its job in this
 * process has returned (job-runs.ts); what each run may write is task-claims.ts's rule.
 */
import { Queue, Worker } from 'bullmq';
import {
  CLUSTER_QUEUE_PREFIX,
  connectRedis,
  isCluster,
  targetOf,
  type RedisConnection,
  type RedisTarget,
} from '../redis-target.js';
import { JobRuns } from './job-runs.js';
import { jobIdOf, type ScheduleOptions, type TaskProcessor, type TaskQueue } from './task-queue.js';

/** Where the queue's Redis is, its name, and how many jobs an instance runs at once. */
export interface BullMqTaskQueueOptions {
  /** One Redis (`redis://…`); or give `redis`. */
  url?: string;
  /** One Redis, a Sentinel set or a Redis Cluster (redis-target.ts). */
  redis?: RedisTarget;
  /** Queue name; instances of one deployment share it. */
  name?: string;
  /** Jobs one instance runs at once. */
  concurrency?: number;
  /**
   * How long a worker's lock on a job lasts without renewal: a dead instance's jobs move to
   * another after about this long (BullMQ's default is 30 s).
   */
  lockDurationMs?: number;
}

/** Task steps as BullMQ jobs, for a fleet: a step whose instance died runs again on another. */
export class BullMqTaskQueue implements TaskQueue {
  readonly #options: BullMqTaskQueueOptions;
  readonly #connection: RedisConnection;
  readonly #queue: Queue;
  #worker: Worker | undefined;
  /** The worker's own (blocking) connection: BullMQ leaves a connection it was given open. */
  #workerConnection: RedisConnection | undefined;
  readonly #runs = new JobRuns();
  readonly #prefix: string | undefined;

  constructor(options: BullMqTaskQueueOptions) {
    this.#options = options;
    // BullMQ wants its connections to retry for ever rather than fail commands. This one only adds
    // jobs and counts them: the adds of concurrent calls go out together, one write and one read
    // of Redis's for a burst (redis-task-scripts.ts says why that matters).
    const target = targetOf(options);
    this.#connection = connectRedis(target, { maxRetriesPerRequest: null, enableAutoPipelining: true });
    this.#connection.on('error', () => {});
    // In a cluster, BullMQ's scripts need all of a queue's keys in one slot: a hash-tagged prefix.
    this.#prefix = isCluster(target) ? CLUSTER_QUEUE_PREFIX : undefined;
    this.#queue = new Queue(options.name ?? 'baton-tasks', {
      connection: this.#connection,
      ...(this.#prefix ? { prefix: this.#prefix } : {}),
    });
    this.#queue.on('error', () => {});
  }

  async schedule(taskId: string, options: ScheduleOptions): Promise<void> {
    const delay = options.runAt === undefined ? 0 : Math.max(0, options.runAt - Date.now());
    await this.#queue.add(
      'advance',
      { taskId },
      {
        jobId: jobIdOf(taskId, options.jobKey),
        delay,
        // A step the store interrupted (a Redis failover) runs again: 0.5 s, 1 s, 2 s, … about 8 min in all.
        attempts: 10,
        backoff: { type: 'exponential', delay: 500 },
        removeOnComplete: true,
        removeOnFail: 1000,
      },
    );
  }

  start(processor: TaskProcessor): void {
    const lockDuration = this.#options.lockDurationMs ?? 30_000;
    // Not pipelined: BullMQ blocks on the worker's connection (and on the one it duplicates from it),
    // and a pipeline waiting on a blocked command would hold every command queued behind it.
    this.#workerConnection = connectRedis(targetOf(this.#options), { maxRetriesPerRequest: null });
    this.#workerConnection.on('error', () => {});
    this.#worker = new Worker(
      this.#options.name ?? 'baton-tasks',
      async (job) => {
        const jobId = job.id ?? '';
        // BullMQ counts the starts of a job as it moves it to active: 1 unless it ran before.
        const attempt = Math.max(1, job.attemptsStarted);
        return this.#runs.run(jobId, () => processor((job.data as { taskId: string }).taskId, jobId, attempt));
      },
      {
        connection: this.#workerConnection,
        ...(this.#prefix ? { prefix: this.#prefix } : {}),
        concurrency: this.#options.concurrency ?? 16,
        lockDuration,
        stalledInterval: Math.max(1000, Math.floor(lockDuration / 2)),
        // A step that keeps killing its instance should still end: the runner fails the task then.
        maxStalledCount: 5,
      },
    );
    this.#worker.on('error', () => {});
  }

  depth(): Promise<number> {
    return this.#queue.getWaitingCount();
  }

  timersPending(): Promise<number> {
    return this.#queue.getDelayedCount();
  }

  async close(): Promise<void> {
    // Forced: a step may run for hours. Its job is recovered by another instance once its lock
    // expires, exactly as if this instance had died.
    await this.#worker?.close(true);
    await this.#queue.close();
    this.#workerConnection?.disconnect();
    this.#connection.disconnect();
  }
}
