/**
 * Task throughput, next to the MRTR figures: `tools/call` that creates a task, and `tasks/get`,
 * per second at concurrency 16 over loopback, on an in-process Baton, with the in-memory store
 * and, when redis-server is installed, with Redis and BullMQ (a throwaway redis-server without
 * persistence: what is measured is Baton's cost, not the disk's).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createConnection, createServer as createNetServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createServer, type TaskOptions } from '../../server/create-server.js';
import { BullMqTaskQueue, KeyRing, RedisTaskStore, silentLogger } from '../../server/engine/index.js';
import { benchTaskTool } from '../tools/bench-task.js';

export interface TaskThroughput {
  store: 'memory' | 'redis';
  creates: { perSecond: number; p50Ms: number; p99Ms: number; errors: number };
  gets: { perSecond: number; p50Ms: number; p99Ms: number; errors: number };
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: {},
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};

function post(url: string, id: number, method: string, params: Record<string, unknown>, name: string) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': name,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } }),
  }).then((response) => response.json() as Promise<{ result?: Record<string, unknown>; error?: unknown }>);
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `one` from 16 workers for `seconds`; each call resolves true when it succeeded. */
async function load(seconds: number, one: (n: number) => Promise<boolean>) {
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await one(counter++).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (latencies.length - errors) / elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors,
  };
}

async function measureWith(
  store: TaskThroughput['store'],
  tasks: TaskOptions,
  seconds: number,
): Promise<TaskThroughput> {
  const baton = createServer({
    tools: [benchTaskTool],
    keyRing: new KeyRing([{ id: 'bench', secret: new Uint8Array(randomBytes(32)) }]),
    logger: silentLogger,
    tasks,
  });
  const { server, url } = await baton.listen(0, '127.0.0.1');
  try {
    const ids: string[] = [];
    const call = async (n: number) => {
      const body = await post(url, n, 'tools/call', { name: 'bench-task', arguments: {} }, 'bench-task');
      const taskId = body.result?.taskId;
      if (typeof taskId === 'string') ids.push(taskId);
      return typeof taskId === 'string';
    };
    await load(0.3, call); // warm-up
    const creates = await load(seconds, call);
    const gets = await load(seconds, async (n) => {
      const taskId = ids[n % ids.length]!;
      const body = await post(url, n, 'tasks/get', { taskId }, taskId);
      return body.result?.status === 'input_required' || body.result?.status === 'working';
    });
    return { store, creates, gets };
  } finally {
    server.closeAllConnections();
    server.close();
    await baton.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function withRedis<T>(run: (url: string) => Promise<T>): Promise<T | undefined> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) return undefined;
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  try {
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (up) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return await run(`redis://127.0.0.1:${port}`);
  } finally {
    child.kill('SIGKILL');
  }
}

export async function measureTaskThroughput(seconds: number): Promise<TaskThroughput[]> {
  const results = [await measureWith('memory', {}, seconds)];
  const redis = await withRedis(async (url) => {
    const keyRing = new KeyRing([{ id: 'bench', secret: new Uint8Array(randomBytes(32)) }]);
    return measureWith(
      'redis',
      { store: new RedisTaskStore({ url, keyRing }), queue: new BullMqTaskQueue({ url }) },
      seconds,
    );
  });
  if (redis) results.push(redis);
  return results;
}
