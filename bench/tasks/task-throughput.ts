/**
 * Task throughput, next to the MRTR figures: `tools/call` that creates a task, and `tasks/get`,
 * per second at concurrency 16 over loopback, on an in-process Baton, with the in-memory store
 * and, when redis-server is installed, with Redis and BullMQ (a throwaway redis-server without
 * persistence, on the server core when there is one: what is measured is Baton's cost, not the
 * disk's). On the same Redis, then, the floor (task-floor.ts): BullMQ adding and completing an
 * empty job, and a bare read of the task hashes Baton just stored.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createServer, type TaskOptions } from '../../server/create-server.js';
import { BullMqTaskQueue, KeyRing, MemoryTaskStore, RedisTaskStore, silentLogger } from '../../server/engine/index.js';
import { redisAvailable, startRedis } from '../redis/index.js';
import { benchTaskTool } from '../tools/bench-task.js';
import { measureTaskFloor, type TaskFloor } from './task-floor.js';
import { load, TASK_CLIENTS, type OpFigures, type RedisProbe } from './task-load.js';
import { keepAliveAgent } from '../load/http-post.js';
import { postTarget, postTaskRequest } from './task-request.js';

export interface TaskThroughput {
  store: 'memory' | 'redis';
  creates: OpFigures;
  gets: OpFigures;
  /** With Redis: the floor on the same Redis. */
  floor?: TaskFloor;
}

/** The prefix of the task hashes in Redis, so the floor reads the very same hashes. */
const TASK_PREFIX = 'bench:task:';

/**
 * Waits until every task created so far has run its first step: two changes published each (the
 * step's claim, then its pause at the question), or, should that count ever be off, the queue
 * empty and the store quiet for half a second; 30 s at most.
 */
function firstStepsRun(tasks: TaskOptions, created: () => number): { wait: () => Promise<void>; stop: () => void } {
  let changes = 0;
  let lastChange = performance.now();
  const stop = tasks.store!.listen((_taskId, kind) => {
    if (kind !== 'changed') return;
    changes++;
    lastChange = performance.now();
  });
  const wait = async () => {
    const deadline = performance.now() + 30_000;
    while (performance.now() < deadline && changes < 2 * created()) {
      const quiet = performance.now() - lastChange > 500;
      if (quiet && ((await tasks.queue?.depth?.()) ?? 0) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { wait, stop };
}

async function measureWith(
  store: TaskThroughput['store'],
  tasks: TaskOptions,
  seconds: number,
  redis?: RedisProbe,
): Promise<TaskThroughput & { ids: string[] }> {
  const baton = createServer({
    tools: [benchTaskTool],
    keyRing: new KeyRing([{ id: 'bench', secret: new Uint8Array(randomBytes(32)) }]),
    logger: silentLogger,
    // One bench client creates thousands of tasks that never end: past the per-caller quotas
    // (100 live tasks, 16 MiB) every creation would be refused, and the bench would time refusals.
    tasks: {
      ...tasks,
      quotas: { liveTasksPerClient: Number.MAX_SAFE_INTEGER, bytesPerClient: Number.MAX_SAFE_INTEGER },
    },
  });
  const { server, url } = await baton.listen(0, '127.0.0.1');
  const agent = keepAliveAgent(TASK_CLIENTS);
  const target = postTarget(url);
  try {
    const ids: string[] = [];
    const call = async (n: number) => {
      const body = await postTaskRequest(
        agent,
        target,
        n,
        'tools/call',
        { name: 'bench-task', arguments: {} },
        'bench-task',
      );
      const taskId = body.result?.taskId;
      if (typeof taskId === 'string') ids.push(taskId);
      return typeof taskId === 'string';
    };
    // A create answers once the task is stored and its first step queued; the step then runs on
    // the worker. Each phase waits for those steps, so they count as the creates' cost, not the gets'.
    const settle = firstStepsRun(tasks, () => ids.length);
    await load(0.3, call, undefined, undefined, settle.wait); // warm-up
    const creates = await load(seconds, call, redis, `${store}-create`, settle.wait);
    settle.stop();
    const gets = await load(
      seconds,
      async (n) => {
        const taskId = ids[n % ids.length]!;
        const body = await postTaskRequest(agent, target, n, 'tasks/get', { taskId }, taskId);
        return body.result?.status === 'input_required' || body.result?.status === 'working';
      },
      redis,
      `${store}-get`,
    );
    return { store, creates, gets, ids };
  } finally {
    agent.destroy();
    server.closeAllConnections();
    server.close();
    await baton.close();
  }
}

async function withRedis<T>(
  cpus: string | undefined,
  run: (url: string, probe: RedisProbe) => Promise<T>,
): Promise<T | undefined> {
  if (!redisAvailable()) return undefined;
  const redis = await startRedis({ cpus });
  try {
    // Its own connection: the counters it reads (INFO) are left out of what is counted.
    const client = new Redis(redis.url, { maxRetriesPerRequest: 2 });
    client.on('error', () => {});
    try {
      return await run(redis.url, { pid: redis.pid, client });
    } finally {
      client.disconnect();
    }
  } finally {
    await redis.stop();
  }
}

/**
 * In memory, then with Redis and its floor when redis-server is installed; `redisCpus` pins Redis
 * (the server core, idle while this runs in the generator's process).
 */
export async function measureTaskThroughput(seconds: number, redisCpus?: string): Promise<TaskThroughput[]> {
  const { ids: _ids, ...memory } = await measureWith('memory', { store: new MemoryTaskStore() }, seconds);
  const results: TaskThroughput[] = [memory];
  const redis = await withRedis(redisCpus, async (url, probe) => {
    const keyRing = new KeyRing([{ id: 'bench', secret: new Uint8Array(randomBytes(32)) }]);
    const { ids, ...baton } = await measureWith(
      'redis',
      { store: new RedisTaskStore({ url, keyRing, prefix: TASK_PREFIX }), queue: new BullMqTaskQueue({ url }) },
      seconds,
      probe,
    );
    const floor = await measureTaskFloor(
      url,
      ids.map((id) => TASK_PREFIX + id),
      seconds,
      probe,
    );
    return { ...baton, floor };
  });
  if (redis) results.push(redis);
  return results;
}
