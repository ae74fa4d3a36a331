/**
 * Runs real Baton server processes (`node --import tsx server/cli/cli.ts serve`) on loopback for
 * multi-instance and fleet tests, and stops them again by PID.
 *
 * Every process is tracked by the `BatonFleet` that started it; `fleet.stopAll()` belongs in an
 * `after()` hook so processes stop even when tests fail. As a last resort, any process still
 * alive when the test runner exits is killed (SIGKILL) so no server outlives the run.
 */
import { availableParallelism, loadavg } from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../bench/redis/index.js';

export { freePort };

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LOOPBACK = '127.0.0.1';
/** How much of a child's stderr is kept for failure messages. */
const STDERR_LIMIT = 64 * 1024;

export interface SpawnBatonOptions {
  /** `BATON_KEYS` for the instance (`kid:base64key,…`). */
  keys: string;
  /** Extra environment (BATON_STATE_TTL, BATON_PUBLIC_URL, …); PORT and HOST are set here. */
  env?: Record<string, string>;
  /** How long to wait for GET /healthz to answer (default 20 s: tsx compiles on first start). */
  readyTimeoutMs?: number;
  /** Extra arguments after `serve`, e.g. `['--workers', '2']` or `['--conformance']`. */
  args?: string[];
  /** How many fresh ports to try when the chosen one was taken in the meantime (default 3). */
  portAttempts?: number;
  /** Node options after `--import tsx` (so preloads may be TypeScript), e.g. `['--expose-gc']`. */
  nodeArgs?: string[];
}

export interface BatonInstance {
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The instance id from /healthz (also sent as the `Baton-Instance` header). */
  instanceId: string;
  /** What the process wrote to stderr so far (the tail, for diagnostics). */
  stderr(): string;
  /** Resolves when the process has exited (also when it exits on its own). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function killLeftoversOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) {
      if (child.pid !== undefined) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

class StartFailure extends Error {
  constructor(
    message: string,
    readonly portTaken: boolean,
  ) {
    super(message);
  }
}

export type Stopper = (graceMs?: number) => Promise<void>;

async function spawnOnce(
  port: number,
  options: SpawnBatonOptions,
  track: (stop: Stopper) => void,
): Promise<BatonInstance> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', ...(options.nodeArgs ?? []), 'server/cli/cli.ts', 'serve', ...(options.args ?? [])],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env, PORT: String(port), HOST: LOOPBACK, BATON_KEYS: options.keys },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  if (child.pid === undefined) throw new StartFailure('could not spawn node', false);
  const pid = child.pid;
  live.add(child);
  killLeftoversOnExit();

  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_LIMIT);
  });
  let hasExited = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      hasExited = true;
      live.delete(child);
      resolve({ code, signal });
    });
  });

  async function stop(graceMs = 5000): Promise<void> {
    if (hasExited) return;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const outcome = await Promise.race([exited, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout' && !hasExited) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      await exited;
    }
  }

  track(stop);

  const origin = `http://${LOOPBACK}:${port}`;
  const readyTimeoutMs = options.readyTimeoutMs ?? scaledReadyTimeoutMs();
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (hasExited) {
      throw new StartFailure(
        `baton (pid ${pid}) exited before it was ready on port ${port}:\n${stderr}`,
        /EADDRINUSE/.test(stderr),
      );
    }
    try {
      const response = await fetch(`${origin}/healthz`);
      if (response.ok) {
        const health = (await response.json()) as { instance?: unknown };
        return {
          pid,
          port,
          origin,
          url: `${origin}/mcp`,
          instanceId: String(health.instance ?? response.headers.get('baton-instance')),
          stderr: () => stderr,
          exited,
          stop,
        };
      }
    } catch {
      // Not listening yet.
    }
    await delay(50);
  }
  await stop(1000);
  const load = loadavg()[0]!.toFixed(1);
  throw new StartFailure(
    `baton (pid ${pid}) was not ready on port ${port} within ${readyTimeoutMs} ms (load average ${load} on ${availableParallelism()} CPUs); its stderr:\n${stderr}`,
    false,
  );
}

/**
 * How long a cold start may take here: 20 s on an idle machine, more in proportion to the load
 * (a shared CI machine at load 7 on 2 cores took 19 s to start one tsx process), at most 2 min.
 */
export function scaledReadyTimeoutMs(): number {
  const busy = loadavg()[0]! / availableParallelism();
  return Math.min(120_000, Math.round(20_000 * Math.max(1, busy)));
}

/**
 * Starts one instance on a free loopback port and waits until GET /healthz answers. `track` gets
 * the stop function as soon as the process exists, before it is ready, so a caller can stop it
 * even if the wait is abandoned (a hook timeout).
 */
export async function spawnBaton(
  options: SpawnBatonOptions,
  track: (stop: Stopper) => void = () => {},
): Promise<BatonInstance> {
  const attempts = options.portAttempts ?? 3;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await spawnOnce(await freePort(), options, track);
    } catch (error) {
      // Another process may grab the probed port before the child binds it: try a fresh one.
      if (error instanceof StartFailure && error.portTaken && attempt < attempts) continue;
      throw error;
    }
  }
}

/**
 * Starts run one at a time in this process, whichever fleet asks: five cold tsx starts at once on
 * a loaded machine outran their ready timeout, while one after another each is quick (the later
 * ones find tsx's cache warm).
 */
let startQueue: Promise<unknown> = Promise.resolve();

/** The instances one suite started; stop them all in `after()`. */
export class BatonFleet {
  readonly instances: BatonInstance[] = [];
  /** Every process this fleet spawned, ready or not. */
  readonly #stoppers: Stopper[] = [];
  #stopping = false;

  async start(options: SpawnBatonOptions): Promise<BatonInstance> {
    if (this.#stopping) throw new Error('this fleet was stopped; make a new one');
    const turn = startQueue.then(() =>
      spawnBaton(options, (stop) => {
        // A start still under way when stopAll ran (a sibling failed, a hook timed out): stop it now.
        if (this.#stopping) void stop();
        else this.#stoppers.push(stop);
      }),
    );
    startQueue = turn.catch(() => undefined);
    const instance = await turn;
    this.instances.push(instance);
    return instance;
  }

  /** Stops every process (in parallel), SIGKILLing those that ignore SIGTERM for `graceMs`. */
  async stopAll(graceMs = 5000): Promise<void> {
    this.#stopping = true;
    this.instances.splice(0);
    await Promise.all(this.#stoppers.splice(0).map((stop) => stop(graceMs)));
  }
}
