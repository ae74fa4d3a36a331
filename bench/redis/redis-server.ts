/**
 * Starts a throwaway redis-server on 127.0.0.1 (no persistence unless asked) for the tests and
 * benchmarks of Baton on Redis, and stops it by PID. CI installs redis-server from Debian's
 * packages.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from '../targets/free-port.js';

export interface RunningRedis {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export function redisAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

export interface RedisStartOptions {
  /** Restarts a Redis on the port a stopped one used. */
  port?: number;
  /** More settings (`--maxmemory-policy …`), after the defaults so they override them. */
  args?: string[];
  /** Pins it with `taskset -c` (a benchmark's server core). taskset execs it: `pid` is Redis's own. */
  cpus?: string | undefined;
}

/** Append-only file, fsync on every write: what the single-use guard asks of a production Redis. */
export const DURABLE_REDIS = ['--appendonly', 'yes', '--appendfsync', 'always'];

export async function startRedis(options: RedisStartOptions = {}): Promise<RunningRedis> {
  const port = options.port ?? (await freePort());
  const redisArgs = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--protected-mode',
    'yes',
    ...(options.args ?? []),
  ];
  const child = options.cpus
    ? spawn('taskset', ['-c', options.cpus, 'redis-server', ...redisArgs], { stdio: 'ignore' })
    : spawn('redis-server', redisArgs, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await ping(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
