/**
 * Every target process the bench starts, Node or Python, by PID: stopped on request (SIGTERM,
 * then SIGKILL after 3 s), and all of them killed when the bench exits, on SIGINT/SIGTERM and on
 * errors, so no target outlives the bench.
 */
import type { ChildProcess } from 'node:child_process';

const live = new Map<number, ChildProcess>();

/** Kills every target still running (SIGKILL): the last resort on exit and signals. */
export function killAllTargets(): void {
  for (const [pid] of live) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  live.clear();
}

let hooksInstalled = false;
function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', killAllTargets);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`bench: ${signal}, stopping targets\n`);
      killAllTargets();
      process.exit(130);
    });
  }
}

export interface TrackedChild {
  pid: number;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** SIGTERM, then SIGKILL if it has not exited after 3 s; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Registers a freshly spawned target process (its PID must be known). */
export function trackChild(child: ChildProcess, what: string): TrackedChild {
  installExitHooks();
  if (child.pid === undefined) throw new Error(`could not spawn the ${what}`);
  const pid = child.pid;
  live.set(pid, child);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      live.delete(pid);
      resolve();
    }),
  );
  async function stop(): Promise<void> {
    if (!live.has(pid)) return;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    const timer = setTimeout(() => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 3000);
    await exited;
    clearTimeout(timer);
  }
  return { pid, exited, stop };
}
