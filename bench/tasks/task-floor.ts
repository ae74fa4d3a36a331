/**
 * The floor of Baton's tasks on Redis: what the same bench reaches on the same Redis with nothing
 * of Baton in the way, driven by the same 16 workers in this process (task-load.ts).
 *
 * - Creating a task stores it and queues its first step, which a worker of the same process then
 *   runs. The floor: BullMQ adding an empty job (the options Baton's queue adds with) and a worker
 *   of this process completing it with a processor that does nothing. Its rate is jobs both added
 *   and completed per second: a backlog of jobs added but not yet run does not count.
 * - `tasks/get` reads the task's hash. The floor: HMGET of the same two fields of the very hashes
 *   Baton's tasks were stored in.
 */
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { performance } from 'node:perf_hooks';
import { load, TASK_CLIENTS, type OpFigures, type RedisProbe } from './task-load.js';

export interface TaskFloor {
  /** BullMQ: add an empty job, and a worker completes it. */
  jobs: OpFigures & { completedPerSecond: number };
  /** A bare Redis hash read (HMGET rev body) of a stored task. */
  hashReads: OpFigures;
}

const QUEUE = 'bench-floor';

async function measureJobs(url: string, seconds: number, redis: RedisProbe | undefined) {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  connection.on('error', () => {});
  const queue = new Queue(QUEUE, { connection });
  let completed = 0;
  // BullMQ leaves a connection it was given open when it closes: this one is closed below.
  const workerConnection = connection.duplicate();
  workerConnection.on('error', () => {});
  const worker = new Worker(QUEUE, async () => undefined, {
    connection: workerConnection,
    concurrency: TASK_CLIENTS,
  });
  worker.on('completed', () => completed++);
  worker.on('error', () => {});
  try {
    await worker.waitUntilReady();
    const add = async (n: number) => {
      const job = await queue.add(
        'advance',
        { taskId: `floor-${n}` },
        { jobId: `floor-${n}.0`, removeOnComplete: true, removeOnFail: 1000 },
      );
      return job.id !== undefined;
    };
    await load(0.3, add); // warm-up
    const before = completed;
    const started = performance.now();
    const figures = await load(seconds, add, redis, 'floor-jobs');
    const completedPerSecond = (completed - before) / ((performance.now() - started) / 1000);
    return { ...figures, perSecond: Math.min(figures.perSecond, completedPerSecond), completedPerSecond };
  } finally {
    await worker.close(true);
    await queue.obliterate({ force: true }).catch(() => {});
    await queue.close();
    workerConnection.disconnect();
    connection.disconnect();
  }
}

async function measureHashReads(url: string, keys: string[], seconds: number, redis: RedisProbe | undefined) {
  const reader = new Redis(url, { maxRetriesPerRequest: 2 });
  reader.on('error', () => {});
  try {
    const read = async (n: number) => {
      const [rev, body] = await reader.hmget(keys[n % keys.length]!, 'rev', 'body');
      return rev !== null && body !== null;
    };
    await load(0.3, read); // warm-up
    return await load(seconds, read, redis, 'floor-hash-reads');
  } finally {
    reader.disconnect();
  }
}

/** The floor on the Redis at `url`, reading the task hashes at `taskKeys` (Baton's, just stored). */
export async function measureTaskFloor(
  url: string,
  taskKeys: string[],
  seconds: number,
  redis?: RedisProbe,
): Promise<TaskFloor> {
  if (taskKeys.length === 0) throw new Error('no stored task to read: the Redis run created none');
  const jobs = await measureJobs(url, seconds, redis);
  const hashReads = await measureHashReads(url, taskKeys, seconds, redis);
  return { jobs, hashReads };
}
