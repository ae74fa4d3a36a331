/**
 * The floor of Baton's tasks on Redis: what the same bench reaches on the same Redis with nothing
 * of Baton in the way, driven by the same 16 workers in this process (task-load.ts), first called
 * directly, then behind bare Koa.
 *
 * - Creating a task stores it and queues its first step, which a worker of the same process then
 *   runs. The floor: BullMQ adding an empty job (the options Baton's queue adds with) and a worker
 *   of this process completing it with a processor that does nothing. Its rate is jobs both added
 *   and completed per second: a backlog of jobs added but not yet run does not count.
 * - `tasks/get` reads the task's hash. The floor: HMGET of the same two fields of the very hashes
 *   Baton's tasks were stored in.
 * - Behind bare Koa: the same two, each the answer to the very request Baton's bench sends
 *   (task-request.ts) over the same HTTP client, so the floor pays for an HTTP exchange as each
 *   of Baton's operations does. The server reads the body, parses it, adds the job (or reads the
 *   hash) and writes a small reply: the least an HTTP service creating a BullMQ job per request,
 *   or reading a hash, can do. Without it, Baton's ratio to the floor holds the HTTP exchange
 *   both ends (more than the floor job itself costs) as if it were Baton's.
 */
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import Koa from 'koa';
import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { keepAliveAgent } from '../load/http-post.js';
import { load, TASK_CLIENTS, type OpFigures, type RedisProbe } from './task-load.js';
import { postTarget, postTaskRequest } from './task-request.js';

export interface TaskFloor {
  /** BullMQ: add an empty job, and a worker completes it. */
  jobs: OpFigures & { completedPerSecond: number };
  /** A bare Redis hash read (HMGET rev body) of a stored task. */
  hashReads: OpFigures;
  /**
   * The job added by bare Koa answering Baton's `tools/call` request; a worker completes it.
   * Absent from runs saved before it was measured (saved-run.ts), as is `httpHashReads`.
   */
  httpJobs?: OpFigures & { completedPerSecond: number };
  /** The hash read by bare Koa answering Baton's `tasks/get` request. */
  httpHashReads?: OpFigures;
}

/** One operation of the floor, given the number of the call. */
type Operation = (n: number) => Promise<boolean>;

/**
 * Bare Koa on loopback answering each JSON-RPC request with `answer(params, id)` as its result,
 * and a client calling it as Baton's bench calls Baton: `call(n)` posts `method` with `params(n)`
 * and id `n`.
 */
async function behindKoa(
  method: string,
  params: (n: number) => Record<string, unknown>,
  answer: (params: Record<string, unknown>, n: number) => Promise<Record<string, unknown> | undefined>,
): Promise<{ call: Operation; close: () => Promise<void> }> {
  const app = new Koa();
  app.use(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      id: number;
      params: Record<string, unknown>;
    };
    const result = await answer(message.params, message.id);
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(
      result
        ? { jsonrpc: '2.0', id: message.id, result }
        : { jsonrpc: '2.0', id: message.id, error: { code: -32602, message: 'unknown' } },
    );
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const target = postTarget(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`);
  const agent = keepAliveAgent(TASK_CLIENTS);
  const call: Operation = async (n) => {
    const sent = params(n);
    const reply = await postTaskRequest(agent, target, n, method, sent, String(sent.name ?? sent.taskId));
    return reply.result !== undefined;
  };
  const close = async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { call, close };
}

const QUEUE = 'bench-floor';

/**
 * Jobs added by `through(add)` and completed by a worker of this process; `phase` names the
 * profile (phase-profiler.ts).
 */
async function measureJobs(
  url: string,
  seconds: number,
  redis: RedisProbe | undefined,
  phase: string,
  through: (add: Operation) => Promise<{ call: Operation; close: () => Promise<void> }>,
) {
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
    const add: Operation = async (n) => {
      const job = await queue.add(
        'advance',
        { taskId: `floor-${n}` },
        { jobId: `floor-${n}.0`, removeOnComplete: true, removeOnFail: 1000 },
      );
      return job.id !== undefined;
    };
    const operation = await through(add);
    try {
      await load(0.3, operation.call); // warm-up
      const before = completed;
      const started = performance.now();
      const figures = await load(seconds, operation.call, redis, phase);
      const completedPerSecond = (completed - before) / ((performance.now() - started) / 1000);
      return { ...figures, perSecond: Math.min(figures.perSecond, completedPerSecond), completedPerSecond };
    } finally {
      await operation.close();
    }
  } finally {
    await worker.close(true);
    await queue.obliterate({ force: true }).catch(() => {});
    await queue.close();
    workerConnection.disconnect();
    connection.disconnect();
  }
}

/** Reads of the hashes at `keys` by `through(read)`, one key after the other. */
async function measureHashReads(
  url: string,
  keys: string[],
  seconds: number,
  redis: RedisProbe | undefined,
  phase: string,
  through: (read: Operation) => Promise<{ call: Operation; close: () => Promise<void> }>,
) {
  const reader = new Redis(url, { maxRetriesPerRequest: 2 });
  reader.on('error', () => {});
  try {
    const read: Operation = async (n) => {
      const [rev, body] = await reader.hmget(keys[n % keys.length]!, 'rev', 'body');
      return rev !== null && body !== null;
    };
    const operation = await through(read);
    try {
      await load(0.3, operation.call); // warm-up
      return await load(seconds, operation.call, redis, phase);
    } finally {
      await operation.close();
    }
  } finally {
    reader.disconnect();
  }
}

/** As long as a task id of Baton's (16 random bytes, base64url). */
const floorTaskId = (n: number) => `floor-${String(n).padStart(16, '0')}`;

/** The operation called as it is: no HTTP. */
const direct = async (operation: Operation) => ({ call: operation, close: async () => {} });

/** The job added behind bare Koa, answering the `tools/call` that creates Baton's bench task. */
const jobBehindKoa = (add: Operation) =>
  behindKoa(
    'tools/call',
    () => ({ name: 'bench-task', arguments: {} }),
    async (_params, n) => ((await add(n)) ? { taskId: floorTaskId(n) } : undefined),
  );

/** The hash read behind bare Koa, answering a `tasks/get`. */
const readBehindKoa = (read: Operation) =>
  behindKoa(
    'tasks/get',
    (n) => ({ taskId: floorTaskId(n) }),
    async (params, n) => ((await read(n)) ? { taskId: params.taskId, status: 'input_required' } : undefined),
  );

/** The floor on the Redis at `url`, reading the task hashes at `taskKeys` (Baton's, just stored). */
export async function measureTaskFloor(
  url: string,
  taskKeys: string[],
  seconds: number,
  redis?: RedisProbe,
): Promise<TaskFloor> {
  if (taskKeys.length === 0) throw new Error('no stored task to read: the Redis run created none');
  const jobs = await measureJobs(url, seconds, redis, 'floor-jobs', direct);
  const hashReads = await measureHashReads(url, taskKeys, seconds, redis, 'floor-hash-reads', direct);
  const httpJobs = await measureJobs(url, seconds, redis, 'floor-http-jobs', jobBehindKoa);
  const httpHashReads = await measureHashReads(url, taskKeys, seconds, redis, 'floor-http-hash-reads', readBehindKoa);
  return { jobs, hashReads, httpJobs, httpHashReads };
}
