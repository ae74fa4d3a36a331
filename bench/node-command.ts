/**
 * How the bench starts a Node process of its own (a target, the micro-benchmarks): the script as
 * the runner runs (compiled under dist/, or from the sources under tsx in the tests), pinned with
 * `taskset` when a CPU list is given.
 */
import { fileURLToPath } from 'node:url';

const FROM_SOURCES = import.meta.url.endsWith('.ts');

/** The arguments that run the module at `moduleUrl` (named without its extension) as this process runs. */
export function scriptArgs(moduleUrl: URL): string[] {
  const file = fileURLToPath(`${moduleUrl.href}.${FROM_SOURCES ? 'ts' : 'js'}`);
  return FROM_SOURCES ? ['--import', 'tsx', file] : [file];
}

/** The command and arguments for `node <nodeArgs>`, under `taskset -c <cpus>` when given. */
export function nodeCommand(nodeArgs: string[], cpus?: string): [string, string[]] {
  return cpus ? ['taskset', ['-c', cpus, process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
}
