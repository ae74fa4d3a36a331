/**
 * Runs a real nginx in front of Baton instances for the fleet test, from the documented template
 * deploy/nginx.conf: the template is rendered into a temporary prefix directory with the test's
 * ports (listen on 127.0.0.1 only, one upstream `server` line per instance); pid file, logs and
 * scratch files stay in that directory. nginx runs in the foreground (`daemon off`), so the
 * spawned process is the master, and it is stopped by that PID (graceful quit, then harder).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './spawn-baton.js';

export const NGINX_TEMPLATE = fileURLToPath(new URL('../../deploy/nginx.conf', import.meta.url));

export interface RunningNginx {
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The proxied MCP endpoint, `<origin>/mcp`. */
  url: string;
  /** The rendered configuration and the prefix directory it runs in. */
  config: string;
  prefix: string;
  /** The access log so far: one line per request, with the upstream and its Baton-Instance. */
  accessLog(): string;
  errorLog(): string;
  /** Graceful quit (SIGQUIT), SIGTERM and SIGKILL after grace periods; removes the prefix. */
  stop(): Promise<void>;
}

/** Where nginx is: BATON_NGINX, on PATH, or Debian's /usr/sbin (not on every user's PATH). */
export function nginxBinary(): string | undefined {
  // BATON_NGINX names the binary (empty: none), e.g. to test a machine without nginx.
  const named = process.env.BATON_NGINX;
  if (named !== undefined) return named && existsSync(named) ? named : undefined;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : undefined;
}

/**
 * The template with the test's ports. Every replaced line must be found exactly as documented, so
 * a change to the template's shape fails here loudly instead of testing something else.
 */
export function renderNginxConfig(
  template: string,
  options: { port: number; upstreams: number[]; workerProcesses?: number },
): string {
  const replaceOnce = (text: string, pattern: RegExp, replacement: string) => {
    const matches = text.match(new RegExp(pattern.source, pattern.flags.replace('g', '') + 'g'));
    if (matches?.length !== 1) throw new Error(`deploy/nginx.conf: expected one match of ${pattern}`);
    return text.replace(pattern, replacement);
  };
  let config = replaceOnce(template, /^(\s*)listen 127\.0\.0\.1:\d+;$/m, `$1listen 127.0.0.1:${options.port};`);
  config = replaceOnce(config, /^worker_processes \w+;$/m, `worker_processes ${options.workerProcesses ?? 2};`);
  const serverLines = /^(\s*)server 127\.0\.0\.1:\d+( [^;\n]*)?;\n/gm;
  const found = [...config.matchAll(serverLines)];
  if (found.length === 0) throw new Error('deploy/nginx.conf: no upstream `server 127.0.0.1:PORT …;` lines');
  const [indent, parameters] = [found[0]![1], found[0]![2] ?? ''];
  const rendered = options.upstreams.map((port) => `${indent}server 127.0.0.1:${port}${parameters};\n`).join('');
  let first = true;
  return config.replace(serverLines, () => {
    const text = first ? rendered : '';
    first = false;
    return text;
  });
}

const live = new Set<number>();
let exitHookInstalled = false;

function stopLeftoversOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    // SIGTERM, not SIGKILL: the master must take its worker processes down with it.
    for (const pid of live) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function startOnce(binary: string, upstreams: number[], port: number): Promise<RunningNginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'baton-nginx-'));
  mkdirSync(join(prefix, 'logs'));
  mkdirSync(join(prefix, 'temp'));
  const config = renderNginxConfig(readFileSync(NGINX_TEMPLATE, 'utf8'), { port, upstreams });
  writeFileSync(join(prefix, 'nginx.conf'), config);
  // Run as root (CI), nginx would switch its workers to `nobody`; keep them on our own user.
  const globals = `daemon off;${process.getuid?.() === 0 ? ' user root;' : ''}`;
  const child = spawn(binary, ['-p', prefix, '-c', 'nginx.conf', '-e', 'logs/error.log', '-g', globals], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('could not spawn nginx');
  const pid = child.pid;
  live.add(pid);
  stopLeftoversOnExit();
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  let hasExited = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      hasExited = true;
      live.delete(pid);
      resolve();
    }),
  );
  const read = (name: string) => {
    try {
      return readFileSync(join(prefix, 'logs', name), 'utf8');
    } catch {
      return '';
    }
  };

  async function stop(): Promise<void> {
    for (const [signal, graceMs] of [
      ['SIGQUIT', 5000],
      ['SIGTERM', 3000],
      ['SIGKILL', 3000],
    ] as const) {
      if (hasExited) break;
      try {
        process.kill(pid, signal);
      } catch {
        break;
      }
      await Promise.race([exited, delay(graceMs)]);
    }
    rmSync(prefix, { recursive: true, force: true });
  }

  const origin = `http://127.0.0.1:${port}`;
  const running: RunningNginx = {
    pid,
    port,
    origin,
    url: `${origin}/mcp`,
    config,
    prefix,
    accessLog: () => read('access.log'),
    errorLog: () => read('error.log'),
    stop,
  };
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !hasExited) {
    try {
      // Through nginx to an instance: proves the proxy is up and an upstream answers.
      if ((await fetch(`${origin}/healthz`)).ok) {
        const pidFile = read('nginx.pid').trim();
        if (pidFile && Number(pidFile) !== pid) throw new Error(`nginx pid file says ${pidFile}, spawned ${pid}`);
        return running;
      }
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('nginx pid file')) throw error;
    }
    await delay(50);
  }
  const why = `${stderr}\n${read('error.log')}`;
  await stop();
  throw Object.assign(new Error(`nginx did not start on port ${port}:\n${why}`), {
    portTaken: /Address already in use/.test(why),
  });
}

/** Starts nginx on a free loopback port in front of `upstreams` (ports of Baton instances). */
export async function startNginx(options: { upstreams: number[] }): Promise<RunningNginx> {
  const binary = nginxBinary();
  if (!binary) throw new Error('nginx is not installed (apt-get install nginx; .ci/run installs it)');
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(binary, options.upstreams, await freePort());
    } catch (error) {
      if ((error as { portTaken?: boolean }).portTaken && attempt < 3) continue;
      throw error;
    }
  }
}
