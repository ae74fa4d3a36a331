/**
 * Starts a throwaway redis-server on 127.0.0.1 (no persistence) for tests of the Redis
 * single-use guard, and stops it by PID. CI installs redis-server from Debian's packages.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from './spawn-baton.js';

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

/** `port` restarts a Redis on the port a stopped one used; `args` adds settings (`--maxmemory-policy …`). */
export async function startRedis(options: { port?: number; args?: string[] } = {}): Promise<RunningRedis> {
  const port = options.port ?? (await freePort());
  const child = spawn(
    'redis-server',
    [
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
    ],
    { stdio: 'ignore' },
  );
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
