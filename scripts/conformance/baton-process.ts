/**
 * Baton as a child process for the conformance run: `serve --conformance` (the conformance
 * fixtures) on a loopback port, ready once `/healthz` answers 200 and the server has logged its
 * `"event":"listening"` line, stopped by PID (SIGTERM, then SIGKILL after a grace period).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export interface BatonProcessOptions {
  projectRoot: string;
  host: string;
  port: number;
  /** Where the server's stdout and stderr go. */
  logPath: string;
  /** Extra environment (BATON_KEYS, ...), on top of this process's environment. */
  env: Record<string, string>;
  readyTimeoutMs?: number;
  stopGraceMs?: number;
}

export interface BatonProcess {
  pid: number | undefined;
  /** The MCP endpoint, `http://HOST:PORT/mcp`. */
  url: string;
  /** Resolves once the server is ready; rejects (after stopping it) if it does not get there. */
  ready: Promise<void>;
  /** SIGTERM, SIGKILL after the grace period; resolves once the process has exited. */
  stop(): Promise<void>;
  /** SIGKILL now, synchronously (for `process.on('exit')`). */
  killNow(): void;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

const LOG_TAIL_CHARS = 2_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function watchExit(child: ChildProcess): { exited: Promise<Exit>; current: () => Exit | undefined } {
  let result: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once('error', (error) => resolve((result ??= { code: null, signal: null, error })));
    child.once('exit', (code, signal) => resolve((result ??= { code, signal })));
  });
  return { exited, current: () => result };
}

async function healthzInstance(base: string): Promise<string | undefined | false> {
  try {
    const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1_000) });
    if (response.status !== 200) return false;
    const body = (await response.json().catch(() => ({}))) as { instance?: unknown };
    return typeof body.instance === 'string' ? body.instance : undefined;
  } catch {
    return false;
  }
}

function describeExit(exit: Exit): string {
  if (exit.error) return `could not start (${exit.error.message})`;
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/**
 * Spawns Baton and returns at once, so the caller can stop it even while it starts; await
 * `ready` before using it.
 */
export function startBaton(options: BatonProcessOptions): BatonProcess {
  const { host, port, readyTimeoutMs = 30_000, stopGraceMs = 5_000 } = options;
  const base = `http://${host}:${port}`;
  const log = createWriteStream(options.logPath);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/cli.ts', 'serve', '--conformance'], {
    cwd: options.projectRoot,
    env: { ...process.env, ...options.env, HOST: host, PORT: String(port), BATON_CONFORMANCE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = watchExit(child);
  // 'close' (not 'exit') comes after the child's output has been read to the end.
  const endLog = () => {
    if (!log.writableEnded) log.end();
  };
  child.once('close', endLog);
  child.once('error', endLog);

  let stderrTail = '';
  let pending = '';
  let listeningInstance: string | null = null; // null: not logged yet; '' : logged without instance
  child.stdout?.pipe(log, { end: false });
  child.stderr?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    const text = chunk.toString('utf8');
    stderrTail = (stderrTail + text).slice(-LOG_TAIL_CHARS);
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"event":"listening"')) continue;
      try {
        const parsed = JSON.parse(line) as { instance?: unknown };
        listeningInstance = typeof parsed.instance === 'string' ? parsed.instance : '';
      } catch {
        listeningInstance = '';
      }
    }
  });

  const stop = async () => {
    if (exit.current()) return;
    child.kill('SIGTERM');
    const timer = delay(stopGraceMs).then(() => 'timeout' as const);
    if ((await Promise.race([exit.exited, timer])) === 'timeout' && !exit.current()) {
      child.kill('SIGKILL');
      await Promise.race([exit.exited, delay(stopGraceMs)]);
    }
    if (!log.closed) await Promise.race([once(log, 'close'), delay(stopGraceMs)]).catch(() => {});
  };
  const killNow = () => {
    if (!exit.current()) child.kill('SIGKILL');
  };
  const failStart = async (reason: string): Promise<never> => {
    await stop();
    const tail = stderrTail.trim() ? `\nLast server output:\n${stderrTail.trim()}` : '';
    throw new Error(`Baton ${reason} (server log: ${options.logPath}).${tail}`);
  };

  const waitUntilReady = async (): Promise<void> => {
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      const exited = exit.current();
      if (exited) return failStart(describeExit(exited));
      const instance = await healthzInstance(base);
      if (instance !== false && listeningInstance !== null) {
        if (instance && listeningInstance && instance !== listeningInstance) {
          return failStart(`is not the server answering on ${base}: another process holds the port`);
        }
        break;
      }
      if (Date.now() > deadline) {
        const why =
          instance === false
            ? `did not answer GET /healthz with 200 within ${readyTimeoutMs} ms`
            : `answered /healthz but never logged "event":"listening" within ${readyTimeoutMs} ms`;
        return failStart(why);
      }
      await delay(100);
    }
  };
  const ready = waitUntilReady();
  ready.catch(() => {}); // the caller awaits it; no unhandled rejection if it never does
  return { pid: child.pid, url: `${base}/mcp`, ready, stop, killNow };
}
