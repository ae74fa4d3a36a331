/**
 * The runner's side of a target: spawns `target-process.ts` (pinned to the server core with
 * `taskset` when there is one), waits for its URL, samples its CPU and memory over IPC, and stops
 * it by PID (child-processes.ts). A Python target is started by python-target-handle.ts.
 */
import { spawn } from 'node:child_process';
import { PACKAGE_ROOT } from '../../server/package-root.js';
import { nodeCommand, scriptArgs } from '../node-command.js';
import { trackChild } from './child-processes.js';
import { spawnPythonTarget } from './python-target-handle.js';
import { isPythonTarget } from './target-catalogue.js';
import type { TargetKind, TargetMessage, Usage, UsageRequest } from './target-protocol.js';

export { killAllTargets } from './child-processes.js';

const REPO_ROOT = PACKAGE_ROOT;
/**
 * The target process runs as the runner does: compiled (`npm run bench` builds dist/ first, as a
 * deployment would run Baton) or from the sources under tsx (the tests).
 */
const TARGET_SCRIPT = scriptArgs(new URL('./target-process', import.meta.url));
const STDERR_LIMIT = 16 * 1024;

export interface TargetHandle {
  kind: TargetKind;
  pid: number;
  url: string;
  usage(options?: { gc?: boolean }): Promise<Usage>;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** CPU list for `taskset -c` (e.g. "0"), or undefined to leave the process unpinned. */
  cpus?: string;
  readyTimeoutMs?: number;
  /** Environment for this target on top of the bench's own (e.g. BENCH_TELEMETRY). */
  env?: Record<string, string>;
  /** The Python interpreter of the bench's virtual environment (bench/targets/python-env.ts), for a Python target. */
  python?: string;
}

export async function spawnTarget(kind: TargetKind, options: SpawnOptions = {}): Promise<TargetHandle> {
  if (isPythonTarget(kind)) return spawnPythonTarget(kind, options);
  // BENCH_TARGET_NODE_ARGS adds Node options to every target, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`
  // to profile them under the bench's own load (NODE_OPTIONS refuses --cpu-prof).
  const extra = (process.env.BENCH_TARGET_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const nodeArgs = ['--expose-gc', ...extra, ...TARGET_SCRIPT, kind];
  const [command, args] = nodeCommand(nodeArgs, options.cpus);
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const { pid, stop } = trackChild(child, `${kind} target`);
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_LIMIT);
  });
  const pending = new Map<number, (usage: Usage) => void>();
  let nextId = 1;
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${kind} target (pid ${pid}) not ready in time:\n${stderr}`)),
      options.readyTimeoutMs ?? 30_000,
    );
    child.on('message', (message: TargetMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.url);
      } else if (message.type === 'usage') {
        pending.get(message.id)?.(message);
        pending.delete(message.id);
      }
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
    usage(usageOptions = {}) {
      return new Promise<Usage>((resolve, reject) => {
        if (!child.connected) return reject(new Error(`${kind} target (pid ${pid}) is gone:\n${stderr}`));
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${kind} target (pid ${pid}) did not report its usage`));
        }, 10_000);
        pending.set(id, (usage) => {
          clearTimeout(timer);
          resolve(usage);
        });
        const request: UsageRequest = { type: 'usage', id, ...(usageOptions.gc ? { gc: true } : {}) };
        child.send(request);
      });
    },
    stop,
  };
}
