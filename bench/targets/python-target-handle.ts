/**
 * The runner's side of a Python target (bench/targets/python-sdk-target.py, fastmcp-target.py):
 * runs the script with the bench's virtual environment (python-env.ts), pinned to the server core
 * like every target, waits for the line that says it listens, and reads its CPU time and memory
 * from /proc (proc-usage.ts), the way the bench reads every target's CPU. The script exits when
 * its stdin closes, so it cannot outlive the bench either.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { PACKAGE_ROOT } from '../../server/package-root.js';
import { trackChild } from './child-processes.js';
import { procUsage } from './proc-usage.js';
import type { SpawnOptions, TargetHandle } from './target-handle.js';
import { TARGETS } from './target-catalogue.js';
import type { TargetKind } from './target-protocol.js';

const STDERR_LIMIT = 16 * 1024;

/** The ready line's URL, or undefined when `line` is not the ready line. */
export function readyUrl(line: string): string | undefined {
  try {
    const message = JSON.parse(line) as { type?: unknown; url?: unknown };
    return message.type === 'ready' && typeof message.url === 'string' ? message.url : undefined;
  } catch {
    return undefined;
  }
}

export async function spawnPythonTarget(kind: TargetKind, options: SpawnOptions): Promise<TargetHandle> {
  if (!options.python) throw new Error(`the ${kind} target needs the bench's Python (bench/targets/python-env.ts)`);
  const script = join(PACKAGE_ROOT, TARGETS[kind].source);
  const command = options.cpus ? 'taskset' : options.python;
  const args = options.cpus ? ['-c', options.cpus, options.python, script] : [script];
  const child = spawn(command, args, {
    cwd: PACKAGE_ROOT,
    // Byte code goes to the environment's cache, never next to the scripts in the repository.
    env: { ...process.env, PYTHONPYCACHEPREFIX: join(dirname(dirname(options.python)), 'pycache') },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const { pid, stop } = trackChild(child, `${kind} target`);
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_LIMIT);
  });
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${kind} target (pid ${pid}) not ready in time:\n${stderr}`)),
      options.readyTimeoutMs ?? 60_000,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = readyUrl(line);
      if (url === undefined) return;
      clearTimeout(timer);
      resolve(url);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${kind} target (pid ${pid}) exited (${code ?? signal}):\n${stderr}`));
    });
  });
  let url: string;
  try {
    url = await ready;
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    kind,
    pid,
    url,
    async usage() {
      try {
        return procUsage(pid);
      } catch {
        throw new Error(`${kind} target (pid ${pid}) is gone:\n${stderr}`);
      }
    },
    stop,
  };
}
