/**
 * Server and generator on different cores: targets run under `taskset -c <server cores>` and the
 * runner moves itself (the generator) to the remaining core. Without taskset, or with a single
 * core, nothing is pinned and the report says so.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export interface Pinning {
  /** CPU list for the targets' `taskset -c`, or undefined when not pinned. */
  serverCpus?: string;
  generatorCpus?: string;
  description: string;
}

function hasTaskset(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function pinCores(): Pinning {
  const cores = os.cpus().length;
  if (cores < 2) return { description: `not pinned: only ${cores} core` };
  if (!hasTaskset()) return { description: 'not pinned: taskset is not installed' };
  const serverCpus = '0';
  const generatorCpus = cores > 2 ? `1-${cores - 1}` : '1';
  try {
    // Both masks must be allowed here (a CI runner may already restrict this process).
    execFileSync('taskset', ['-c', serverCpus, 'true'], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', generatorCpus, String(process.pid)], { stdio: 'ignore' });
  } catch {
    return { description: 'not pinned: taskset could not set this process’s affinity' };
  }
  return {
    serverCpus,
    generatorCpus,
    description: `taskset: server on CPU ${serverCpus}, load generator on CPU ${generatorCpus}`,
  };
}
